'use strict';
// Token issuance and revocation.

const { HttpError, requireBodyObject, stringField } = require('../lib/params');

function login({ state, body }) {
	requireBodyObject(body);
	const clientKey = stringField(body, 'clientKey', { required: true });
	const clientSecret = stringField(body, 'clientSecret', { required: true });
	if (clientKey !== state.credentials.clientKey || clientSecret !== state.credentials.clientSecret) {
		throw new HttpError(401, 'Invalid client key or secret');
	}
	state.logins++;
	const token = state.tokens.issue(clientKey, state.organizationId);
	return { headers: { Authorization: token }, body: { token } };
}

/** Logout answers 401 (not the configurable expired status) for a token that is not valid. */
function logout({ state, token }) {
	if (!token || !state.tokens.revoke(token)) throw new HttpError(401, 'Token is invalid or expired');
	return { body: undefined };
}

module.exports = { login, logout };
