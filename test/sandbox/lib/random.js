'use strict';
// Deterministic pseudo-random numbers: the same seed always yields the same demo data.

const { imul, floor, min } = Math; // local copies: global lookups are slow inside Jest's vm contexts

/** Mixes a list of integers into one well-spread unsigned 32-bit hash. */
function hash32(...values) {
	let h = 0x9e3779b9;
	for (const value of values) {
		h = imul(h ^ (value >>> 0), 0x85ebca6b);
		h ^= h >>> 13;
		h = imul(h, 0xc2b2ae35);
		h ^= h >>> 16;
	}
	return h >>> 0;
}

/** mulberry32: tiny, fast and good enough for demo data. */
class Rng {
	constructor(seed) {
		this.state = seed >>> 0;
	}

	/** A float in [0, 1). */
	next() {
		this.state = (this.state + 0x6d2b79f5) >>> 0;
		let t = this.state;
		t = imul(t ^ (t >>> 15), t | 1);
		t ^= t + imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	/** An integer in [low, high], both inclusive. */
	int(low, high) {
		return low + floor(this.next() * (high - low + 1));
	}

	chance(probability) {
		return this.next() < probability;
	}

	pick(list) {
		return list[floor(this.next() * list.length)];
	}

	/** Picks from [[value, weight], ...] proportionally to the weights. */
	weighted(table) {
		const total = table.reduce((sum, [, weight]) => sum + weight, 0);
		let roll = this.next() * total;
		for (const [value, weight] of table) {
			roll -= weight;
			if (roll < 0) return value;
		}
		return table[table.length - 1][0];
	}

	/** An index in [0, n) that favours low values, so the first contacts carry most of the activity. */
	skewedIndex(n) {
		return min(n - 1, floor(n * this.next() ** 2));
	}

	hex(length) {
		let out = '';
		while (out.length < length) out += floor(this.next() * 0x100000000).toString(16).padStart(8, '0');
		return out.slice(0, length);
	}

	digits(length) {
		let out = '';
		for (let i = 0; i < length; i++) out += floor(this.next() * 10);
		return out;
	}
}

module.exports = { hash32, Rng };
