/**
 * The limiter's simulation on jest's fake clock (a busy machine's real timers fire hundreds of ms late): a fake
 * Cloud4Wi with the limit shapes the limiter must read, and runs through it as the router and the transport send them.
 * Used by test/limiter/algorithm.test.ts and bench/limiter-sweep.bench.ts.
 */
import type { Limiter } from '../../nodes/Cloud4Wi/shared/limiter';

/** A timer on the fake clock (the service's own waits). */
const timer = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Lets `ms` pass on the fake clock, a millisecond at a time, with every promise settled in between. */
export const after = async (ms: number) => {
	for (let i = 0; i < ms; i++) await jest.advanceTimersByTimeAsync(1);
};
/** Runs the clock, from each timer to the next at its exact time, until `work` is done. */
export async function until<T>(work: Promise<T>): Promise<T> {
	let done = false;
	void work.finally(() => (done = true));
	while (!done) await jest.advanceTimersToNextTimerAsync();
	return await work;
}

export interface Model {
	/** Most requests served at once (0: none). */
	inFlight?: number;
	/** Most requests accepted in any second (0: none). */
	perSecond?: number;
	/** How `perSecond` counts: the last 1,000 ms (default), each clock second, or a bucket of that many refilled evenly. */
	window?: 'sliding' | 'fixed' | 'bucket';
	/** A refusal takes as long as an answer and counts as in flight meanwhile. */
	slowRefusals?: boolean;
	latencyMs: number;
	/** Answers (and slow refusals) take up to this much longer, at random: they come back out of order. */
	spreadMs?: number;
	/** The way there takes up to this much longer, at random: sends reach the service out of order, as from a busy n8n. */
	wayMs?: number;
	retryAfterMs: number;
}

/** A fake Cloud4Wi: counts what it serves, refuses over its limit, and records what it saw. */
export class Service {
	inFlight = 0;
	mostServed = 0;
	refused = 0;
	accepted: number[] = [];
	pauses = 0;
	private lastRefusalAt = Number.NEGATIVE_INFINITY;
	private bucket = { tokens: Number.NaN, at: 0 };

	/** `seed`: the random draws of `spreadMs` and `wayMs`, the same in every run (Park and Miller's generator). */
	constructor(
		private readonly model: Model,
		private seed = 1,
	) {}

	/** A draw in [0, 1). */
	private random(): number {
		this.seed = (this.seed * 16807) % 2147483647;
		return this.seed / 2147483647;
	}

	/** Whether a request arriving `now` is over the per-second limit (one taken from the bucket if not). */
	private overRate(now: number, perSecond: number): boolean {
		if (this.model.window === 'fixed')
			return this.accepted.filter((at) => Math.floor(at / 1000) === Math.floor(now / 1000)).length >= perSecond;
		if (this.model.window !== 'bucket') return this.accepted.length >= perSecond;
		const tokens = Number.isNaN(this.bucket.tokens)
			? perSecond
			: this.bucket.tokens + ((now - this.bucket.at) * perSecond) / 1000;
		this.bucket = { tokens: Math.min(perSecond, tokens), at: now };
		if (this.bucket.tokens < 1) return true;
		this.bucket.tokens--;
		return false;
	}

	/** Serves one request: 'answered' after the latency, or 'limited' (at once, or after the latency). */
	async serve(): Promise<'answered' | 'limited'> {
		// The way there: a request reaches the service after the answers it left in the same instant.
		await timer(1 + (this.model.wayMs ? this.random() * this.model.wayMs : 0));
		const now = performance.now();
		while (this.accepted.length && this.accepted[0] <= now - 1000) this.accepted.shift();
		this.inFlight++;
		const { inFlight = 0, perSecond = 0, slowRefusals, spreadMs } = this.model;
		const latencyMs = this.model.latencyMs + (spreadMs ? this.random() * spreadMs : 0);
		if ((inFlight && this.inFlight > inFlight) || (perSecond && this.overRate(now, perSecond))) {
			this.refused++;
			// Refusals more than half a second apart are separate congestions, each costing the client a pause.
			if (now - this.lastRefusalAt > 500) this.pauses++;
			this.lastRefusalAt = now;
			if (slowRefusals) await timer(latencyMs);
			this.inFlight--;
			return 'limited';
		}
		this.accepted.push(now);
		this.mostServed = Math.max(this.mostServed, this.inFlight);
		await timer(latencyMs);
		this.inFlight--;
		return 'answered';
	}
}

/**
 * Sends `n` requests of one run through the limiter to the service, as the router and the transport do: `width` workers
 * (the run's Max Concurrent Requests; all at once by default), a refused request sent again.
 */
export async function run(limiter: Limiter, service: Service, model: Model, n: number, width = n) {
	const started = performance.now();
	const { mostOfRun } = await until(send(limiter, service, model, n, width));
	return { ms: performance.now() - started, mostOfRun };
}

/** `run` without driving the clock, starting `startAfterMs` later: several at once under one `until` (queue mode). */
export async function send(limiter: Limiter, service: Service, model: Model, n: number, width = n, startAfterMs = 0) {
	let [left, inFlight, mostOfRun] = [n, 0, 0];
	const worker = async () => {
		while (left > 0) {
			left--; // taken before its first await, as the router takes an item
			for (;;) {
				const slot = (await limiter.acquire())!;
				mostOfRun = Math.max(mostOfRun, ++inFlight);
				const outcome = await service.serve();
				inFlight--;
				limiter.release(slot, outcome, outcome === 'limited' ? model.retryAfterMs : 0);
				if (outcome === 'answered') break;
			}
		}
	};
	if (startAfterMs) await timer(startAfterMs);
	await Promise.all(Array.from({ length: Math.min(width, n) }, worker));
	return { mostOfRun };
}
