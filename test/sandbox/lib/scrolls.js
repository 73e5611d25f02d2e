'use strict';
// Scroll cursors (sid / scrollId): a snapshot of the matching items, read page by page.

const crypto = require('node:crypto');
const { conflict } = require('./params');

class ScrollStore {
	constructor({ clock, ttlMs }) {
		this.clock = clock;
		this.ttlMs = ttlMs;
		this.scrolls = new Map();
	}

	/** `kind` ties a scroll id to one listing, so an id from another endpoint is refused. */
	open(kind, items, size) {
		this.sweep();
		const scroll = {
			id: crypto.randomBytes(24).toString('base64url'),
			kind,
			items,
			size,
			position: 0,
			lastUsedAt: this.clock.now(),
		};
		this.scrolls.set(scroll.id, scroll);
		return scroll;
	}

	/** Finds a live scroll; the page size may be repeated but never changed. */
	resume(kind, id, paramName, requestedSize) {
		const scroll = this.scrolls.get(id);
		if (!scroll || scroll.kind !== kind) {
			throw conflict(`Invalid parameter ${paramName}: unknown or expired scroll id`);
		}
		if (this.clock.now() - scroll.lastUsedAt > this.ttlMs) {
			this.scrolls.delete(id);
			throw conflict(
				`Invalid parameter ${paramName}: scroll id expired (scroll ids expire ${this.ttlMs / 1000} s after last use)`,
			);
		}
		if (requestedSize !== undefined && requestedSize !== scroll.size) {
			throw conflict(`Invalid parameter size: cannot change during a scroll (this scroll uses size ${scroll.size})`);
		}
		return scroll;
	}

	/** The next page; past the end it is empty, and the scroll id stays usable until it expires. */
	nextPage(scroll) {
		const page = scroll.items.slice(scroll.position, scroll.position + scroll.size);
		scroll.position += page.length;
		scroll.lastUsedAt = this.clock.now();
		return page;
	}

	/** Long-abandoned scrolls are dropped so benchmarks do not pile up snapshots. */
	sweep() {
		const cutoff = this.clock.now() - 10 * this.ttlMs;
		for (const [id, scroll] of this.scrolls) if (scroll.lastUsedAt < cutoff) this.scrolls.delete(id);
	}

	get size() {
		return this.scrolls.size;
	}
}

module.exports = { ScrollStore };
