import { sleep } from 'n8n-workflow';

/**
 * Requests in flight to one Cloud4Wi account, per credential and process: TCP's congestion window with its memory of
 * where loss happened (slow start, then a threshold kept across runs), a 429 in place of a lost packet.
 * - Slow start from 16: +2 per answer (+1 per round trip while n8n runs late), x2 per 100 ms a full line hears nothing.
 * - A 429 pauses every request of the account for its Retry-After; the transport sends the refused one again.
 * - The limit: what the service held when it refused the first requests of a congestion, never under half the level
 *   (TCP's multiplicative decrease, down to 8 so). Refused twice at the level (or one under) after the same count (the
 *   last second, or since the pause), it counts per time: starts are paced at it, less a tenth. Above the limit it probes
 *   +1 per round trip after 10 minutes (10 s after a limit held a while fell), the wait doubling at each refused probe.
 * - Starts are paced over the round trip. A run's Max Concurrent Requests is its router's width: one count, the account's.
 */

// Each rule names what keeps it: a test that fails without it (test/limiter/algorithm.test.ts unless said), or a bench row.
const START = 16;
const GROWTH = 2; // bench: "no limit, 300 ms" (+1 per answer: one more round trip to climb)
const LATE_LOOP_MS = 20; // a climb that outruns n8n has its 429s read late: bench real-n8n "32 in flight, cold"
const CLIMB_MS = 100; // "a full line that hears nothing"; bench "no limit, 1 s"
const RESTART = 2 * START; // bulk.test "a limit met after runs without one"
const [MOST, SECOND, NONE] = [1000, 1000, Number.POSITIVE_INFINITY];
const [PROBE_AFTER_MS, PROBE_AFTER_MOST_MS] = [10 * 60_000, 8 * 60 * 60_000]; // "each refused probe doubles", "up to 8 hours"
const PROBE_SOON_MS = 10_000; // a limit that fell (a neighbour, a change) is tried again soon: bench queue
const MOST_SPACING_MS = 25; // security/pacing-past-deadline: paced starts must not pass a poll's budget

/** What a limiter learned, as the workflow keeps it for the next process (`refusedLevel`: the limit + 1). */
export type Learned = { refusedLevel: number; refusedAt: number; probeAfterMs: number; perSecond?: number };
/** A request on its way, and when it started (performance.now(); NONE while it waits its paced turn). */
export type Slot = { sentAt: number };
/** When a request stops waiting (a poll's deadline, a cancel); `first`: it leads a login (bulk.test "ahead of the line"). */
type Until = { deadline?: number; signal?: AbortSignal; first?: boolean };
export type Outcome = 'answered' | 'limited' | 'failed';

export class Limiter {
	private level = START; // requests the account may have in flight now
	private limit = NONE; // most in flight the service was read to take (NONE until a 429)
	private readonly onTheWay = new Set<Slot>();
	private readonly waiting: Array<() => void> = [];
	private pausedUntil = 0;
	// The last congestion: refusals of requests started before `at`; its first refused read, cap, `taken`, and its wall
	// clock time, kept as given (converted back, it moved by a millisecond and the workflow was rewritten).
	private congestion = { at: -NONE, firstSentAt: 0, most: 0, taken: 0, refusedAt: 0 };
	private probeAfterMs = PROBE_AFTER_MS;
	private answers: Array<{ at: number; took: number }> = []; // good answers of the last second
	private nextStartAt = 0;
	private loopLate = 0; // how late n8n's event loop last ran a 1 ms timer, measured while climbing
	private perSecond = 0; // a per-time limit's rate less a tenth, where starts are paced (bulk.test "a few a second")

	/** Starts from what an earlier process learned (values out of range are ignored: bulk.test). */
	constructor(known?: Learned) {
		const { refusedLevel = 0, refusedAt = NONE, probeAfterMs = 0, perSecond = 0 } = known ?? {};
		const level = Number.isFinite(refusedLevel) && refusedLevel >= 2 && refusedLevel <= MOST + 1;
		const probe = probeAfterMs >= PROBE_SOON_MS && probeAfterMs <= PROBE_AFTER_MOST_MS && refusedAt <= Date.now();
		if (!level || !probe) return;
		this.limit = this.level = refusedLevel - 1;
		[this.probeAfterMs, this.perSecond] = [probeAfterMs, Number.isFinite(perSecond) ? Math.max(0, perSecond) : 0];
		Object.assign(this.congestion, { at: performance.now() - (Date.now() - refusedAt), refusedAt });
	}
	learned(): Learned | undefined {
		const { limit, probeAfterMs, perSecond } = this;
		const known = { refusedLevel: limit + 1, refusedAt: this.congestion.refusedAt, probeAfterMs };
		return limit === NONE ? undefined : perSecond ? { ...known, perSecond } : known;
	}

	/** A place for a request once the level and any pause allow; undefined past `until`. */
	async acquire(until: Until = {}): Promise<Slot | undefined> {
		for (;;) {
			if (until.signal?.aborted || Date.now() >= (until.deadline ?? NONE)) return undefined;
			if (this.onTheWay.size === 0 && this.limit === NONE) this.level = Math.min(this.level, RESTART);
			if (this.pausedUntil > Date.now() || this.onTheWay.size >= this.level) {
				await this.inLine(until);
				continue;
			}
			const slot: Slot = { sentAt: NONE };
			this.onTheWay.add(slot);
			// Paced: a burst comes back as a burst and idles the line while it is read (bench/README.md, real n8n).
			const now = performance.now();
			const spacing = this.roundTrip() / (this.level * (this.limit === NONE ? 1 + GROWTH : 1));
			const perTime = this.perSecond && (SECOND * this.limit) / (this.perSecond * this.level);
			// Each start at least a microsecond after the last: its time orders it ("refusing at once" fails on ties).
			const startAt = Math.max(now, this.nextStartAt);
			this.nextStartAt = startAt + Math.max(Math.min(spacing, MOST_SPACING_MS), perTime, 0.001);
			if (startAt - now >= 1) await sleep(startAt - now);
			if (this.pausedUntil <= Date.now()) return Object.assign(slot, { sentAt: startAt });
			this.onTheWay.delete(slot); // a 429 came in while it waited its turn: it waits like the others (bench sweep, queue)
		}
	}

	release(slot: Slot, outcome: Outcome, retryAfterMs = 0): void {
		const now = performance.now();
		if (outcome === 'limited') this.limited(slot, retryAfterMs, now);
		this.onTheWay.delete(slot);
		if (outcome === 'answered') {
			this.answers.push({ at: now, took: now - slot.sentAt });
			while (this.answers[0].at < now - SECOND) this.answers.shift();
			// Above the limit once the probe is due: +1 per round trip's answers (TCP's congestion avoidance).
			const probe = now >= this.congestion.at + this.probeAfterMs;
			const climbing = this.limit === NONE && this.loopLate <= LATE_LOOP_MS;
			if (this.limit === NONE || probe) this.level = Math.min(this.level + (climbing ? GROWTH : 1 / this.level), MOST);
		}
		this.wake();
	}
	/** The shortest round trip of the last second (0: none measured). */
	private roundTrip(): number {
		return this.answers.length ? Math.min(...this.answers.map((answer) => answer.took)) : 0;
	}
	/**
	 * How many the service held when it refused `slot`: started before it, not answered then. It refused as long before
	 * it was read as the 429 took beyond an answer's time outside the service, up to a round trip ("as slow as answers").
	 */
	private held(slot: Slot, now: number): number {
		const roundTrip = this.roundTrip();
		const outside = (this.answers.at(-1)?.took ?? roundTrip) - roundTrip;
		const refusedAt = now - Math.min(roundTrip, Math.max(0, now - slot.sentAt - outside));
		let held = 0;
		for (const other of this.onTheWay) if (other.sentAt < slot.sentAt && other !== slot) held++;
		for (const answer of this.answers) if (answer.at >= refusedAt && answer.at - answer.took < slot.sentAt) held++;
		return held;
	}
	/** A 429: every request pauses ("a 429 pauses every request"), and the congestion is read (see the header). */
	private limited(slot: Slot, retryAfterMs: number, now: number): void {
		const pauseEnded = now - (Date.now() - this.pausedUntil); // the last pause's end, on this clock
		this.pausedUntil = Math.max(this.pausedUntil, Date.now() + retryAfterMs);
		this.wakeAfterPause();
		const last = this.congestion;
		// Read from the refusals started first: a later one counts answers freed since, read high ("refusals started first").
		if (slot.sentAt < last.at && slot.sentAt >= last.firstSentAt) return;
		if (slot.sentAt >= last.at) {
			const probing = this.limit === NONE || this.level > this.limit;
			// Taken since the pause (in the last second, before any) and started before this one: answered, or on the way.
			const answered = this.answers.filter(({ at, took }) => at - took > pauseEnded && at - took < slot.sentAt);
			const longest = Math.max(0, ...answered.map(({ took }) => took)) || this.roundTrip();
			let taken = answered.length;
			for (const other of this.onTheWay) if (other.sentAt > pauseEnded && other.sentAt < slot.sentAt) taken++;
			// A window refuses at the level or one under (the last second may hold one more: "a few a second"), the same
			// count each time ("two pauses at most"); an in-flight limit under it ("takes 2 at once"), or "read one high", once.
			const window = taken >= this.level - 1 ? taken : 0;
			const again = window > 0 && Math.abs(window - last.taken) <= 0.1 * window;
			// Never past a level the service refused (a count one high). A rate: starts paced at it, a tenth under; in
			// flight, what it needs at the slowest answer, and one more.
			const most = Math.min(again ? (0.9 * taken * longest) / SECOND + 1 : NONE, Math.ceil(this.level) - 1);
			if (again) this.perSecond = 0.9 * taken;
			// Refused within two round trips of its pause, the level was never held: a count corrected, not a fall.
			const fell = !probing && !again && slot.sentAt - pauseEnded > 2 * this.roundTrip();
			const soon = fell ? PROBE_SOON_MS : PROBE_AFTER_MS; // a refused probe doubles the wait:
			this.probeAfterMs = probing && this.limit !== NONE ? Math.min(2 * this.probeAfterMs, PROBE_AFTER_MOST_MS) : soon;
			// Every request started so far belongs to it: none starts before the next start given.
			this.congestion = { at: this.nextStartAt, firstSentAt: slot.sentAt, most, taken: window, refusedAt: Date.now() };
			this.limit = 0;
		}
		this.congestion.firstSentAt = slot.sentAt;
		// Never under half the level (TCP's decrease; down to 8 so): our count misses a neighbour's (bench queue read 1).
		const { most } = this.congestion;
		const least = Math.min(Math.ceil((most + 1) / 2), START / 2, most); // a rate read keeps its fraction
		this.limit = Math.max(1, least, Math.min(Math.max(this.limit, this.held(slot, now)), most));
		this.level = Math.min(this.level, this.limit);
	}

	/** Wakes the line when the pause ends; a timer may fire before the clock says so (bulk.test "per second" hung). */
	private wakeAfterPause(): void {
		const left = this.pausedUntil - Date.now();
		if (left > 0) void sleep(left).then(() => this.wakeAfterPause());
		else this.wake();
	}
	/** Lets as many waiting go as there are places. */
	private wake(): void {
		if (this.pausedUntil > Date.now()) return;
		for (let free = this.level - this.onTheWay.size; free > 0 && this.waiting.length; free--) this.waiting.shift()!();
	}

	/** Waits to be woken, or no longer than `until`; while climbing, the first in line times the climb. */
	private inLine(until: Until): Promise<void> {
		return new Promise<void>((resolve) => {
			const leave = () => {
				if (this.waiting.includes(waiter)) this.waiting.splice(this.waiting.indexOf(waiter), 1);
				waiter();
			};
			const waiter = () => (until.signal?.removeEventListener('abort', leave), resolve());
			this.waiting[until.first ? 'unshift' : 'push'](waiter);
			until.signal?.addEventListener('abort', leave, { once: true });
			if (until.deadline !== undefined) void sleep(Math.max(0, until.deadline - Date.now())).then(leave);
			if (this.limit === NONE && this.waiting.length === 1) void this.climbLater();
		});
	}
	/** Until the first 429, with a line: how late n8n's loop runs; a full line that hears nothing for CLIMB_MS doubles. */
	private async climbLater(): Promise<void> {
		for (let checkAt = performance.now() + CLIMB_MS; this.waiting.length && this.limit === NONE; ) {
			const asked = performance.now() + 1;
			await sleep(1);
			const now = performance.now();
			this.loopLate = now - asked;
			if (now < checkAt) continue;
			checkAt = now + CLIMB_MS;
			if (this.limit === NONE && this.onTheWay.size >= this.level && now - (this.answers.at(-1)?.at ?? 0) >= CLIMB_MS) {
				this.level = Math.min(2 * this.level, MOST);
				this.wake();
			}
		}
	}
}
