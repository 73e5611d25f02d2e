'use strict';
// Injected faults: the next matching requests fail (or stall, or lose their socket) on purpose.

class FaultList {
	constructor() {
		this.faults = [];
		this.answers = new Map(); // 'METHOD path' -> last 2xx reply, kept only while a repeat fault matches it
	}

	add(spec = {}) {
		if (spec === null || typeof spec !== 'object') throw new Error('A fault must be an object');
		const times = spec.times ?? 1;
		if (!Number.isInteger(times) || times < 1) throw new Error('fault.times must be a positive integer');
		if (spec.status !== undefined && !(Number.isInteger(spec.status) && spec.status >= 100 && spec.status <= 599)) {
			throw new Error('fault.status must be an HTTP status code');
		}
		const skip = spec.skip ?? 0;
		if (!Number.isInteger(skip) || skip < 0) throw new Error('fault.skip must be an integer >= 0');
		if (
			spec.status === undefined &&
			!spec.delayMs &&
			!spec.destroy &&
			!spec.expireTokens &&
			!spec.expireTokensAfter &&
			spec.rawBody === undefined &&
			!spec.truncate &&
			!spec.trickleMs &&
			!spec.endless &&
			!spec.repeat
		) {
			throw new Error(
				'A fault needs a status, delayMs, destroy, expireTokens, expireTokensAfter, rawBody, truncate, trickleMs, endless or repeat',
			);
		}
		if (spec.location !== undefined && typeof spec.location !== 'string')
			throw new Error('fault.location must be a string');
		if (spec.rawBody !== undefined && typeof spec.rawBody !== 'string')
			throw new Error('fault.rawBody must be a string');
		const fault = {
			...spec,
			method: spec.method?.toUpperCase(),
			pathPattern: spec.path === undefined ? null : new RegExp(spec.path), // throws on an invalid pattern
			times,
			skip,
		};
		this.faults.push(fault);
		return fault;
	}

	/**
	 * The first fault that matches and has no requests left to skip, counted down and removed once used up; a repeat fault
	 * comes with the answer to send again (`again`), if there is one.
	 */
	take(method, pathname) {
		for (const [index, fault] of this.faults.entries()) {
			if (fault.method && fault.method !== method) continue;
			if (fault.pathPattern && !fault.pathPattern.test(pathname)) continue;
			if (fault.skip > 0) {
				fault.skip--; // this request passes untouched (e.g. let the first page through, fail the second)
				continue;
			}
			const taken = fault.repeat ? { ...fault, again: this.answers.get(`${method} ${pathname}`) } : fault;
			if (--fault.times === 0) {
				this.faults.splice(index, 1);
				if (!this.faults.some((f) => f.repeat)) this.answers.clear(); // a later repeat fault starts afresh
			}
			return taken;
		}
		return undefined;
	}

	/** Keeps a 2xx reply while a repeat fault would match the next such request, so it can be sent again. */
	remember(method, pathname, reply) {
		if ((reply.status ?? 200) >= 300) return;
		const wanted = this.faults.some(
			(f) => f.repeat && (!f.method || f.method === method) && (!f.pathPattern || f.pathPattern.test(pathname)),
		);
		if (wanted) this.answers.set(`${method} ${pathname}`, reply);
	}

	clear() {
		this.faults.length = 0;
		this.answers.clear();
	}

	get size() {
		return this.faults.length;
	}
}

module.exports = { FaultList };
