'use strict';
// Bearer tokens: JWT-shaped, unique per login, expiring on the sandbox clock.

const crypto = require('node:crypto');

const base64url = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

class TokenStore {
	constructor({ clock, ttlMs }) {
		this.clock = clock;
		this.ttlMs = ttlMs;
		this.tokens = new Map(); // token -> { expiresAt, revoked }
		this.secret = crypto.randomBytes(32);
		this.issued = 0;
	}

	issue(subject, organizationId) {
		const issuedAt = this.clock.now();
		const expiresAt = issuedAt + this.ttlMs;
		const header = base64url({ alg: 'HS256', typ: 'JWT' });
		const payload = base64url({
			iss: 'cloud4wi-sandbox',
			sub: subject,
			org: organizationId,
			iat: Math.floor(issuedAt / 1000),
			exp: Math.floor(expiresAt / 1000),
			jti: `${++this.issued}-${crypto.randomBytes(6).toString('hex')}`, // unique even within one ms
		});
		const signature = crypto.createHmac('sha256', this.secret).update(`${header}.${payload}`).digest('base64url');
		const token = `${header}.${payload}.${signature}`;
		this.tokens.set(token, { expiresAt, revoked: false });
		return token;
	}

	isValid(token) {
		const entry = this.tokens.get(token);
		return entry !== undefined && !entry.revoked && this.clock.now() < entry.expiresAt;
	}

	/** Returns false when the token was not valid (logout answers 401 then). */
	revoke(token) {
		if (!this.isValid(token)) return false;
		this.tokens.get(token).revoked = true;
		return true;
	}

	/** Every token issued so far expires now; later logins get fresh tokens. */
	expireAll() {
		const now = this.clock.now();
		let expired = 0;
		for (const entry of this.tokens.values()) {
			if (entry.expiresAt > now) {
				entry.expiresAt = now;
				expired++;
			}
		}
		return expired;
	}

	get activeCount() {
		let count = 0;
		for (const token of this.tokens.keys()) if (this.isValid(token)) count++;
		return count;
	}
}

module.exports = { TokenStore };
