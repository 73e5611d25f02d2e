import { sleep } from 'n8n-workflow';

/** Requests in flight at first; the level doubles every round trip until the service first answers 429. */
export const START_IN_FLIGHT = 8;
/** After a 429, the level that drew it is tried again only after this long without another. */
const PROBE_AFTER_MS = 60_000;

/** A place in flight: its order of sending and how many were in flight with it. */
export interface Slot {
	readonly seq: number;
	readonly inFlight: number;
}

/** How a request ended, for the limiter: an answer, a 429, or no usable answer (network, timeout, 5xx). */
export type Outcome = 'answered' | 'limited' | 'failed';

/**
 * Adaptive cap on requests in flight to one Cloud4Wi account (one per credential and process): it grows while
 * answers are good, drops to just under the level that drew a 429, and pauses every request for the Retry-After.
 */
export class Limiter {
	private limit = START_IN_FLIGHT;
	private cap = Number.POSITIVE_INFINITY;
	private inFlight = 0;
	private sent = 0;
	private readonly waiting: Array<() => void> = [];
	private pausedUntil = 0;
	/** In-flight level that drew the last 429 (none yet: infinite). */
	private ceiling = Number.POSITIVE_INFINITY;
	private limitedAt = 0;
	/** 429s of requests sent before this sequence number belong to a congestion already acted on. */
	private cutAt = 0;
	private credit = 0;

	/** Current in-flight limit (for tests and benchmarks). */
	get level(): number {
		return Math.min(this.limit, this.cap);
	}

	/** Waits for a free place, and for any pause a 429 set. `cap` is the run's Max Concurrent Requests. */
	async acquire(cap: number): Promise<Slot> {
		this.cap = cap;
		for (;;) {
			const pause = this.pausedUntil - Date.now();
			if (pause > 0) {
				await sleep(pause);
				continue;
			}
			if (this.inFlight < Math.min(this.limit, cap)) {
				this.inFlight++;
				return { seq: this.sent++, inFlight: this.inFlight };
			}
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
	}

	release(slot: Slot, outcome: Outcome, retryAfterMs = 0): void {
		this.inFlight--;
		if (outcome === 'limited') this.limited(slot, retryAfterMs);
		else if (outcome === 'answered') this.grow();
		// Wake as many as there are places now (each checks again, so waking one too many is harmless).
		for (let free = Math.min(this.limit, this.cap) - this.inFlight; free > 0 && this.waiting.length; free--) {
			this.waiting.shift()!();
		}
	}

	private limited(slot: Slot, retryAfterMs: number): void {
		const now = Date.now();
		this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
		if (slot.seq < this.cutAt) return; // sent before the last cut: the same congestion
		// A first 429, or one drawn by probing above the last, marks the service's limit: stay just under it.
		// One drawn under a known limit means the service slowed down: halve.
		const atNewLevel = this.ceiling === Number.POSITIVE_INFINITY || slot.inFlight >= this.ceiling;
		this.limit = Math.max(1, atNewLevel ? slot.inFlight - 1 : Math.floor(slot.inFlight / 2));
		this.ceiling = slot.inFlight;
		this.limitedAt = now;
		this.cutAt = this.sent;
		this.credit = 0;
	}

	private grow(): void {
		if (this.limit >= this.cap) return;
		if (this.ceiling === Number.POSITIVE_INFINITY) {
			this.limit++; // no 429 seen yet: +1 per answer doubles the level every round trip
			return;
		}
		if (this.limit + 1 >= this.ceiling && Date.now() - this.limitedAt < PROBE_AFTER_MS) return;
		if (++this.credit >= this.limit) {
			this.credit = 0;
			this.limit++; // +1 per round trip's worth of good answers
		}
	}
}
