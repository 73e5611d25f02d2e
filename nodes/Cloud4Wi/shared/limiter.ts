import { sleep } from 'n8n-workflow';

/**
 * How many requests one Cloud4Wi account has in flight, per credential and process: TCP's congestion window with its
 * memory of where loss happened (slow start, then a threshold kept across runs), on 429s instead of lost packets.
 * - Slow start: from 16 in flight, +2 per good answer (x3 per round trip), x2 per 100 ms that a full line gets none.
 * - A 429 pauses every request of the account for its Retry-After; the transport sends the refused one again.
 * - The limit: what the service held when it refused the first request it refused in a congestion (those sent before
 *   it and not answered by then). Refused again under it after taking a whole level since the pause, the service counts
 *   per time: the limit becomes what it took in that second, at the answers' round trip (Little's law), less a tenth.
 * - Above the limit it probes one more only 10 minutes later, doubling that wait each time the probe is refused.
 * - Starts are paced over the round trip; each run keeps its own Max Concurrent Requests and counts.
 */

const START = 16;
/** Most a run starts at while no 429 was ever met: a level climbed to hundreds, sent at once to a new limit, was refused 465-720 times. */
const RESTART = 2 * START;
/** Growth per good answer until the first 429. */
const GROWTH = 2;
/** A full line that hears nothing for this long doubles (a service a second away otherwise took five round trips to climb). */
const CLIMB_MS = 100;
const MOST = 1000;
const PROBE_AFTER_MS = 10 * 60_000;
const PROBE_AFTER_MOST_MS = 8 * 60 * 60_000;
/** Pacing spreads starts over a round trip; never wider than this between two (a slow answer must not hold the others). */
const MOST_SPACING_MS = 25;
const SECOND = 1000;

/** What a limiter learned, in the form the workflow keeps for the next process (`refusedLevel` is the limit + 1). */
export interface Learned {
	refusedLevel: number;
	refusedAt: number;
	probeAfterMs: number;
}

/** One node run's share: its own cap (Max Concurrent Requests) and its requests in flight. */
export interface RunShare {
	readonly cap: number;
	inFlight: number;
}

/** A request on its way: its run, and when it left (performance.now(); Infinity while it waits its paced turn). */
export interface Slot {
	readonly run: RunShare;
	sentAt: number;
}

/** When a request stops waiting for a place: a poll's deadline (epoch ms), an execution's cancel signal. */
export interface Until {
	deadline?: number;
	signal?: AbortSignal;
}

export type Outcome = 'answered' | 'limited' | 'failed';

interface Waiter {
	run: RunShare;
	go: () => void;
}

export class Limiter {
	/** Requests the account may have in flight now. */
	private level = START;
	/** Most in flight the service was read to take (Infinity until a 429). */
	private limit = Number.POSITIVE_INFINITY;
	private readonly onTheWay = new Set<Slot>();
	private readonly waiting: Waiter[] = [];
	private pausedUntil = 0;
	/**
	 * The congestion being read: refusals of requests that started before `at` belong to it; it is read from the
	 * refusals sent first (the ones that met the limit), the highest of their readings `held`, at no more than `most`.
	 */
	private congestion = { at: Number.NEGATIVE_INFINITY, firstSentAt: 0, most: 0, held: 0, suspect: 0 };
	private probeAt = 0;
	private probeAfterMs = PROBE_AFTER_MS;
	/** Good answers of the last second: when they came and how long they took (the round trip, the rate taken). */
	private answers: Array<{ at: number; took: number }> = [];
	private nextStartAt = 0;
	/** Last growth, or last good answer (performance.now()): the timed climb waits CLIMB_MS from it. */
	private grewAt = 0;

	/** Starts from what an earlier process learned (values out of range are ignored). */
	constructor(known?: Learned) {
		if (!known) return;
		const { refusedLevel, refusedAt, probeAfterMs } = known;
		const valid =
			Number.isInteger(refusedLevel) &&
			refusedLevel >= 2 &&
			refusedLevel <= MOST + 1 &&
			refusedAt <= Date.now() &&
			probeAfterMs >= PROBE_AFTER_MS &&
			probeAfterMs <= PROBE_AFTER_MOST_MS;
		if (!valid) return;
		this.limit = this.level = refusedLevel - 1;
		this.probeAfterMs = probeAfterMs;
		this.probeAt = refusedAt + probeAfterMs;
	}

	learned(): Learned | undefined {
		if (this.limit === Number.POSITIVE_INFINITY) return undefined;
		const refusedAt = this.probeAt - this.probeAfterMs;
		return { refusedLevel: this.limit + 1, refusedAt, probeAfterMs: this.probeAfterMs };
	}

	/** When the pause a 429 set ends (epoch ms; in the past when there is none). */
	get pauseEnd(): number {
		return this.pausedUntil;
	}

	/** A place for one request of `run`, once its cap, the account's level and any pause allow; undefined past `until`. */
	async acquire(run: RunShare, until: Until = {}): Promise<Slot | undefined> {
		for (;;) {
			if (until.signal?.aborted || (until.deadline !== undefined && Date.now() >= until.deadline)) return undefined;
			// A level climbed to with no 429 says nothing of a limit met later: an idle line starts low again.
			if (this.onTheWay.size === 0 && this.limit === Number.POSITIVE_INFINITY)
				this.level = Math.min(this.level, RESTART);
			if (this.pausedUntil > Date.now() || this.onTheWay.size >= this.level || run.inFlight >= run.cap) {
				await this.inLine(run, until);
				continue;
			}
			run.inFlight++;
			const slot: Slot = { run, sentAt: Number.POSITIVE_INFINITY };
			this.onTheWay.add(slot);
			// Paced: a burst comes back as a burst, and the line idles while it is read (answers took 61 ms, not 42, in a real n8n).
			const now = performance.now();
			const perAnswer = this.limit === Number.POSITIVE_INFINITY ? 1 + GROWTH : 1;
			const spacing = Math.min(this.roundTrip() / (this.level * perAnswer), MOST_SPACING_MS);
			// Each start a microsecond at least after the last: its time also orders it among the others.
			const startAt = Math.max(now, this.nextStartAt);
			this.nextStartAt = startAt + Math.max(spacing, 0.001);
			if (startAt - now >= 1) await sleep(startAt - now);
			if (this.pausedUntil <= Date.now()) {
				slot.sentAt = startAt;
				return slot;
			}
			this.onTheWay.delete(slot); // a 429 came in while it waited its turn: it waits like the others
			run.inFlight--;
		}
	}

	release(slot: Slot, outcome: Outcome, retryAfterMs = 0): void {
		this.onTheWay.delete(slot);
		slot.run.inFlight--;
		const now = performance.now();
		if (outcome === 'limited') this.limited(slot, retryAfterMs, now);
		if (outcome === 'answered') {
			this.answers.push({ at: now, took: now - slot.sentAt });
			while (this.answers[0].at < now - SECOND) this.answers.shift();
			this.grow(now);
		}
		this.wake();
	}

	/** The shortest recent round trip (0 when none was measured in the last second). */
	private roundTrip(): number {
		let least = Number.POSITIVE_INFINITY;
		for (const answer of this.answers) least = Math.min(least, answer.took);
		return Number.isFinite(least) ? least : 0;
	}

	private grow(now: number): void {
		if (this.limit === Number.POSITIVE_INFINITY) {
			this.level = Math.min(this.level + GROWTH, MOST);
			this.grewAt = now;
		} else if (Date.now() >= this.probeAt && now - this.grewAt >= this.roundTrip() && this.level < MOST) {
			this.level++; // probing above the limit: one more per round trip
			this.grewAt = now;
		}
	}

	/**
	 * How many the service held when it refused `slot`: those sent before it and not answered by then. It refused as
	 * long before it was read as the refusal took beyond what the last answer spent outside the service: a refusal as
	 * slow as an answer (or read late) was made up to a round trip before; one read as fast as it can be, just now.
	 */
	private held(slot: Slot, now: number): number {
		const roundTrip = this.roundTrip();
		const outside = (this.answers.at(-1)?.took ?? roundTrip) - roundTrip;
		const refusedAt = now - Math.min(roundTrip, Math.max(0, now - slot.sentAt - outside));
		let held = 0;
		for (const other of this.onTheWay) if (other.sentAt < slot.sentAt) held++;
		for (const answer of this.answers) if (answer.at >= refusedAt && answer.at - answer.took < slot.sentAt) held++;
		return Math.max(1, held);
	}

	private limited(slot: Slot, retryAfterMs: number, now: number): void {
		const pauseEnded = now - (Date.now() - this.pausedUntil); // the last pause's end, on this clock
		this.pausedUntil = Math.max(this.pausedUntil, Date.now() + retryAfterMs);
		this.wakeAfterPause();
		const { congestion } = this;
		if (slot.sentAt >= congestion.at) {
			const probing = this.limit === Number.POSITIVE_INFINITY || this.level > this.limit; // the first 429 too
			// A count one high must not raise the limit past a level the service took.
			let most = this.level - 1;
			// Refused under its limit within the pause's length after it ended, having taken a whole level sent since then,
			// and as many as at the last congestion: a window that the pause resets refuses at the same count each time, so
			// the service counts per time. The level then is what it took in the window at its round trip (Little's law),
			// less a tenth. Once is not enough: an in-flight limit read one high, its sends slowed by a busy n8n, looks the
			// same at one congestion, and the count it gives is right.
			let taken = 0;
			let busy = 0;
			for (const answer of this.answers) {
				const sentAt = answer.at - answer.took;
				if (sentAt <= pauseEnded || sentAt >= slot.sentAt) continue;
				taken++;
				busy += answer.took;
			}
			const roundTrip = taken ? busy / taken : this.roundTrip();
			for (const other of this.onTheWay) if (other.sentAt > pauseEnded && other.sentAt < slot.sentAt) taken++;
			const suspect = !probing && taken >= this.level && slot.sentAt - pauseEnded < retryAfterMs ? taken : 0;
			const sameWindow = suspect && Math.abs(suspect - congestion.suspect) <= 0.1 * suspect;
			if (sameWindow) most = Math.min(most, Math.floor((0.9 * taken * roundTrip) / SECOND));
			const probeRefused = probing && this.limit !== Number.POSITIVE_INFINITY;
			this.probeAfterMs = probeRefused ? Math.min(2 * this.probeAfterMs, PROBE_AFTER_MOST_MS) : PROBE_AFTER_MS;
			this.probeAt = Date.now() + this.probeAfterMs;
			// Every request started so far belongs to it: none has a start time past the next one to be given.
			this.congestion = { at: this.nextStartAt, firstSentAt: slot.sentAt, most, held: 0, suspect };
		} else if (slot.sentAt >= congestion.firstSentAt) {
			return; // sent after a refusal of this congestion already read: the service was fuller then
		}
		// The highest reading of the refusals sent first: a 429 read late counts answers the service sent after it.
		this.congestion.firstSentAt = slot.sentAt;
		this.congestion.held = Math.max(this.congestion.held, this.held(slot, now));
		this.limit = Math.max(1, Math.min(this.congestion.held, this.congestion.most));
		this.level = Math.min(this.level, this.limit);
	}

	/** Wakes the line when the pause ends (a timer can fire a millisecond before the clock says so: then it waits on). */
	private wakeAfterPause(): void {
		const left = this.pausedUntil - Date.now();
		if (left > 0) void sleep(left).then(() => this.wakeAfterPause());
		else this.wake();
	}

	/** Lets as many waiting go as there are places, skipping runs at their own cap. */
	private wake(): void {
		if (this.pausedUntil > Date.now()) return;
		let free = this.level - this.onTheWay.size;
		const granted = new Map<RunShare, number>();
		for (let i = 0; free > 0 && i < this.waiting.length; ) {
			const { run, go } = this.waiting[i];
			const taken = run.inFlight + (granted.get(run) ?? 0);
			if (taken >= run.cap) {
				i++;
				continue;
			}
			granted.set(run, taken + 1 - run.inFlight);
			this.waiting.splice(i, 1);
			free--;
			go();
		}
	}

	/** Waits to be woken; no longer than `until`; while climbing, the first in line grows a line that hears nothing. */
	private inLine(run: RunShare, until: Until): Promise<void> {
		return new Promise<void>((resolve) => {
			const leave = () => {
				const at = this.waiting.indexOf(waiter);
				if (at >= 0) this.waiting.splice(at, 1);
				go();
			};
			const go = () => {
				until.signal?.removeEventListener('abort', leave);
				resolve();
			};
			const waiter: Waiter = { run, go };
			this.waiting.push(waiter);
			until.signal?.addEventListener('abort', leave, { once: true });
			if (until.deadline !== undefined) void sleep(Math.max(0, until.deadline - Date.now())).then(leave);
			if (this.limit === Number.POSITIVE_INFINITY && this.waiting.length === 1) void this.climbLater();
		});
	}

	/** Until the first 429, a full line that hears nothing for CLIMB_MS doubles: slow answers must not slow the climb. */
	private async climbLater(): Promise<void> {
		while (this.waiting.length && this.limit === Number.POSITIVE_INFINITY) {
			await sleep(CLIMB_MS);
			const now = performance.now();
			const full = this.onTheWay.size >= this.level && this.level < MOST;
			if (full && this.limit === Number.POSITIVE_INFINITY && now - this.grewAt >= CLIMB_MS) {
				this.level = Math.min(2 * this.level, MOST);
				this.grewAt = now;
				this.wake();
			}
		}
	}
}
