'use strict';
// Injected faults: the next matching requests fail (or stall, or lose their socket) on purpose.

class FaultList {
	constructor() {
		this.faults = [];
	}

	add(spec = {}) {
		if (spec === null || typeof spec !== 'object') throw new Error('A fault must be an object');
		const times = spec.times ?? 1;
		if (!Number.isInteger(times) || times < 1) throw new Error('fault.times must be a positive integer');
		if (spec.status !== undefined && !(Number.isInteger(spec.status) && spec.status >= 100 && spec.status <= 599)) {
			throw new Error('fault.status must be an HTTP status code');
		}
		if (spec.status === undefined && !spec.delayMs && !spec.destroy) {
			throw new Error('A fault needs a status, a delayMs or destroy: true');
		}
		const fault = {
			...spec,
			method: spec.method?.toUpperCase(),
			pathPattern: spec.path === undefined ? null : new RegExp(spec.path), // throws on an invalid pattern
			times,
		};
		this.faults.push(fault);
		return fault;
	}

	/** The first fault that matches, counted down and removed once used up. */
	take(method, pathname) {
		const index = this.faults.findIndex(
			(fault) => (!fault.method || fault.method === method) && (!fault.pathPattern || fault.pathPattern.test(pathname)),
		);
		if (index < 0) return undefined;
		const fault = this.faults[index];
		if (--fault.times === 0) this.faults.splice(index, 1);
		return fault;
	}

	clear() {
		this.faults.length = 0;
	}

	get size() {
		return this.faults.length;
	}
}

module.exports = { FaultList };
