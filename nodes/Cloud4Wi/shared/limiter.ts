import { sleep } from 'n8n-workflow';

/** Requests in flight at first (n8n's HTTP Request node sends all at once); +GROWTH per answer until the first 429. */
export const START_IN_FLIGHT = 16;
/** Most a new run starts with when no 429 was ever met (see `startRun`). */
const RESTART_IN_FLIGHT = 2 * START_IN_FLIGHT;
/** Places added per good answer until the first 429: the level triples every round trip. */
const GROWTH = 2;
/**
 * Until the first 429, a full line with no answer for this long also doubles: with answers a second away, growing only
 * per answer took five round trips to reach 1,000 in flight (5.3 s where n8n's HTTP Request node took 2.4 s). 100 ms,
 * not 50: a busy start can delay the first answers of a service 40 ms away past 50 ms (8-15 needless 429s).
 */
const CLIMB_MS = 100;
const CLIMB_FACTOR = 2;
/** After a 429, the level that drew it is tried again only after this long: each try costs a Retry-After pause. */
const PROBE_AFTER_MS = 10 * 60_000;
/** Each try the service refuses doubles that wait, up to this: a limit that does not move costs a few pauses a day. */
const PROBE_AFTER_MAX_MS = 8 * 60 * 60_000;

/**
 * Starts are spaced by this share of the round trip per place: a little under it, so a start held back by a late
 * answer is made up soon after (1.0: 3.78 s for 1,000 writes at 16 in flight in a real n8n, 0.8-0.9: 3.76 s).
 */
const PACE = 0.85;
/** Longest spacing between two starts: pacing smooths bursts; it must not spread them over a slow answer's seconds. */
const MAX_SPACING_MS = 25;

/** A level the service answered this many round trips' worth of requests at was not found by a probe (see `limited`). */
const SERVED_ROUND_TRIPS = 4;
/**
 * Refused with this many times fewer in flight than it answered since the last congestion: the service does not count
 * requests in flight (a per-second window refuses whatever is in flight once full).
 */
const SERVED_ABOVE = 4;
/** Under a limit, requests kept ready per place: one round in flight, two waiting (all 1,000 read ahead: ~7 % slower in a real n8n). */
const READY_ROUNDS = 3;
/** The window a per-second limit is read over (ms). */
const RATE_WINDOW_MS = 1000;

/** What a limiter learned of the service's limit, in a form another process can start from. */
export interface Learned {
	/** The in-flight level the service last refused. */
	refusedLevel: number;
	/** When (epoch ms), and how long after that the level may be tried again. */
	refusedAt: number;
	probeAfterMs: number;
}

/** A place in flight: its order of sending, how many were in flight with it, and when it started (performance.now()). */
export interface Slot {
	readonly seq: number;
	readonly inFlight: number;
	readonly startedAt: number;
}

/** When a request stops waiting for a place: a poll's deadline (epoch ms), an execution's cancel signal. */
export interface Until {
	deadline?: number;
	signal?: AbortSignal;
}

/** The run's deadline passed or its execution was cancelled: the request stops waiting. */
function outOfTime(until: Until): boolean {
	return !!until.signal?.aborted || (until.deadline !== undefined && Date.now() >= until.deadline);
}

/** How a request ended, for the limiter: an answer, a 429, or no usable answer (network, timeout, 5xx). */
export type Outcome = 'answered' | 'limited' | 'failed';

/**
 * Adaptive cap on requests in flight to one Cloud4Wi account (one per credential and process): it grows while
 * answers are good, drops to what the service held when it answered 429, and pauses every request for the Retry-After.
 */
export class Limiter {
	private limit = START_IN_FLIGHT;
	private cap = Number.POSITIVE_INFINITY;
	/** Places taken, pacing included. */
	private inFlight = 0;
	/** Sequence numbers of the requests on their way (past pacing). */
	private readonly onTheWay = new Set<number>();
	private sent = 0;
	/** Requests waiting, in the order they came: for a place, or for the end of a pause. */
	private readonly waiting: Array<() => void> = [];
	/** A timer is set to wake the waiting when the pause ends (one for all, so they go out in order). */
	private wakeSet = false;
	/** A timer is set to grow a full line that gets no answers (see CLIMB_MS). */
	private climbSet = false;
	/** When the last good answer came, or a login ended (performance.now()). */
	private answeredAt = 0;
	/** Logins under way: the requests in line wait for a token, not for the service, so the timed climb waits too. */
	private loggingIn = 0;
	private readonly pauseListeners = new Set<(until: number) => void>();
	private pausedUntil = 0;
	/** In-flight level that drew the last 429 (none yet: infinite). */
	private ceiling = Number.POSITIVE_INFINITY;
	private limitedAt = 0;
	private probeAfterMs = PROBE_AFTER_MS;
	/** 429s of requests sent before this sequence number belong to a congestion already acted on. */
	private cutAt = 0;
	private credit = 0;
	/** Good answers since `servedSince` (the end of the last pause, or the run's start): what the service took. */
	private served = 0;
	private servedSince = Date.now();
	/** Most in flight with a request answered well since the last congestion. */
	private servedLevel = 0;
	/** When the requests answered well in the last moments started (performance.now()): the rate the service took. */
	private answeredStarts: number[] = [];
	/** The last congestion's level came from the rate the service served, not from a count in flight. */
	private byRate = false;
	/**
	 * The last congestion's level was read from what the service held. Not when its 429 was read after the answers of
	 * nearly all sent before it (an event loop behind, as in a busy n8n): the level is then a guess, recounted once the
	 * requests on the way are answered (`recounted`), else climbed back from.
	 */
	private sure = true;
	/** A guess's recount: the requests on the way when its 429 was read, and how many of them the service took (see `recounted`). */
	private recount: Set<number> | undefined;
	private recountTaken = 0;
	private recountLeast = 0;
	/**
	 * Time from sending to answer, at its shortest lately (0: none measured yet). Quick to fall and slow to rise: one
	 * slow answer, such as a cold first request, must not spread the next starts out.
	 */
	private roundTripMs = 0;
	/** Earliest start of the next request: starts are spread over a round trip instead of leaving in bursts. */
	private nextStartAt = 0;
	/** The last start's turn: starts go out in the order they took their places. */
	private turn: Promise<void> = Promise.resolve();

	/** `climbMs`: see CLIMB_MS (unit tests of the other rules turn it off with Infinity). */
	constructor(private readonly climbMs = CLIMB_MS) {}

	/**
	 * Requests worth having ready to send: while it climbs (no 429 met yet), any number; under a limit it found or
	 * learned, a few rounds of it (reading more items ahead only holds up the answers of those in flight).
	 */
	readyWanted(): number {
		return this.ceiling === Number.POSITIVE_INFINITY
			? Number.POSITIVE_INFINITY
			: READY_ROUNDS * Math.min(this.limit, this.cap);
	}

	/** Calls `listener` with the end of every pause a 429 sets; returns the way to stop listening. */
	onPause(listener: (until: number) => void): () => void {
		this.pauseListeners.add(listener);
		return () => this.pauseListeners.delete(listener);
	}

	/**
	 * Waits for a free place, and for any pause a 429 set. `cap` is the run's Max Concurrent Requests. Undefined when the
	 * run's deadline (a poll's budget) passes first, or its execution was cancelled.
	 */
	async acquire(cap: number, until: Until = {}): Promise<Slot | undefined> {
		this.cap = cap;
		for (;;) {
			if (outOfTime(until)) return undefined;
			if (this.pausedUntil > Date.now()) {
				await this.inLine(until.deadline);
				continue;
			}
			const level = Math.min(this.limit, cap);
			if (this.inFlight < level) {
				this.inFlight++;
				// Paced starts: answers then come back spread out, so handling one overlaps waiting for the others,
				// where a burst would come back as a burst and leave the line idle while it is handled.
				// Sub-millisecond clock: with Date.now() every start slept up to a millisecond past its turn.
				const now = performance.now();
				const startAt = Math.max(now, this.nextStartAt);
				// With no round trip measured yet (a run's first requests), one start per millisecond: answers to a burst
				// come back late together, and their times would set the pace too slow.
				// Until the first 429 each answer starts 1 + GROWTH requests (its own place and the new ones): spaced for that,
				// so the climb is not held back by its own pacing (1,000 writes 300 ms away: 2.2-2.4 s -> 1.8 s).
				const starts = this.climbing() ? 1 + GROWTH : 1;
				const spacing = this.roundTripMs ? Math.min((PACE * this.roundTripMs) / (level * starts), MAX_SPACING_MS) : 1;
				this.nextStartAt = startAt + spacing;
				// Each start waits for the one before: timers of near turns can fire out of order (libuv's cached clock).
				const turn = this.turn.then(async () => {
					const wait = startAt - performance.now();
					if (wait >= 1) await sleep(wait);
				});
				this.turn = turn;
				await turn;
				if (outOfTime(until)) {
					this.inFlight--; // the run's time ran out while this one waited its turn
					this.wake();
					return undefined;
				}
				if (this.pausedUntil > Date.now() || this.onTheWay.size >= Math.min(this.limit, cap)) {
					// A 429 came in while this one waited its turn: give the place back and wait like the others.
					this.inFlight--;
					continue;
				}
				// Counted once really on its way: a 429 tells how many the service was serving.
				this.onTheWay.add(this.sent);
				return { seq: this.sent++, inFlight: this.onTheWay.size, startedAt: performance.now() };
			}
			await this.inLine(until.deadline);
		}
	}

	/** Waits to be woken, or until `deadline` (then leaves the line, so no wake-up is spent on it). */
	private inLine(deadline?: number): Promise<void> {
		this.wake(); // sets the pause's timer if it is not set yet
		this.climbLater();
		return new Promise<void>((resolve) => {
			this.waiting.push(resolve);
			if (deadline === undefined) return;
			void sleep(Math.max(0, deadline - Date.now())).then(() => {
				const place = this.waiting.indexOf(resolve);
				if (place >= 0) this.waiting.splice(place, 1);
				resolve();
			});
		});
	}

	/** Wakes as many waiting as there are places (each checks again); during a pause, sets one timer for its end. */
	private wake(): void {
		const pause = this.pausedUntil - Date.now();
		if (pause > 0) {
			if (!this.wakeSet) {
				this.wakeSet = true;
				// A pause made longer meanwhile is found on waking, and the timer set again for its new end.
				void sleep(pause).then(() => {
					this.wakeSet = false;
					this.wake();
				});
			}
			return;
		}
		for (let free = Math.min(this.limit, this.cap) - this.inFlight; free > 0 && this.waiting.length; free--) {
			this.waiting.shift()!();
		}
	}

	/** Until the first 429, grows a full line that has had no answer for CLIMB_MS: slow answers must not slow the climb. */
	private climbLater(): void {
		if (this.climbSet || !this.climbing() || !Number.isFinite(this.climbMs)) return;
		this.climbSet = true;
		void sleep(this.climbMs).then(() => {
			this.climbSet = false;
			if (!this.climbing() || !this.waiting.length) return;
			if (!this.loggingIn && performance.now() - this.answeredAt >= this.climbMs) {
				this.limit = Math.min(this.cap, Math.ceil(this.limit * CLIMB_FACTOR));
				this.wake();
			}
			if (this.waiting.length) this.climbLater();
		});
	}

	/** No 429 met yet, and below Max Concurrent Requests: the level may still grow. */
	private climbing(): boolean {
		return this.ceiling === Number.POSITIVE_INFINITY && this.limit < this.cap;
	}

	/** A login under way: no timed climb until it ends (else all the requests that queued behind it leave at once). */
	holdClimbFor(login: Promise<unknown>): void {
		this.loggingIn++;
		const ended = () => {
			this.loggingIn--;
			this.answeredAt = performance.now();
		};
		void login.then(ended, ended);
	}

	/** What this limiter learned from a 429, if any. */
	learned(): Learned | undefined {
		if (this.ceiling === Number.POSITIVE_INFINITY || !this.sure) return undefined; // a guess is not handed on
		return { refusedLevel: this.ceiling, refusedAt: this.limitedAt, probeAfterMs: this.probeAfterMs };
	}

	/** Starts from what another process learned, as if this one had drawn that 429 (values out of range are ignored). */
	learn(known: Learned): void {
		const { refusedLevel, refusedAt, probeAfterMs } = known;
		const valid =
			Number.isInteger(refusedLevel) &&
			refusedLevel >= 2 &&
			Number.isFinite(refusedAt) &&
			refusedAt <= Date.now() &&
			Number.isFinite(probeAfterMs) &&
			probeAfterMs >= PROBE_AFTER_MS &&
			probeAfterMs <= PROBE_AFTER_MAX_MS;
		if (!valid || this.ceiling !== Number.POSITIVE_INFINITY) return;
		this.ceiling = refusedLevel;
		this.limit = refusedLevel - 1;
		this.limitedAt = refusedAt;
		this.probeAfterMs = probeAfterMs;
	}

	/** A new node run: its requests may be of another kind than the last run's (a page of records takes longer than a write). */
	startRun(): void {
		// A level climbed to with no 429 was never checked against the service as it is now: a new run on an idle line
		// sends at most twice the start at once (the first run after a limit appeared sent 1,000 at once, 465-870
		// refused, read late as 8 held where the service held 16). Not the start itself: a limit below the first burst
		// is read exactly, before any answer; one met during the climb drew 22-44 refusals and ~0.2 s.
		if (this.ceiling === Number.POSITIVE_INFINITY && this.inFlight === 0) {
			this.limit = Math.min(this.limit, RESTART_IN_FLIGHT);
		}
		this.roundTripMs = 0;
		this.servedLevel = 0; // what an earlier run was served says nothing of a limit the service shows now
		this.served = 0;
		this.servedSince = Date.now();
	}

	/** `timed`: the place was held for the request alone (not also for a login), so its time is a round trip. */
	release(slot: Slot, outcome: Outcome, retryAfterMs = 0, timed = true): void {
		this.inFlight--;
		this.onTheWay.delete(slot.seq);
		if (outcome === 'limited') this.limited(slot, retryAfterMs);
		// Counted after a refusal has lowered the guess, before an answer climbs from it.
		if (this.recount?.delete(slot.seq)) {
			if (outcome === 'answered') this.recountTaken++;
			if (!this.recount.size) this.recounted();
		}
		if (outcome === 'answered') {
			const now = performance.now();
			const took = now - slot.startedAt;
			if (timed) {
				this.roundTripMs =
					!this.roundTripMs || took < this.roundTripMs ? took : this.roundTripMs + 0.05 * (took - this.roundTripMs);
			}
			this.served++;
			this.answeredAt = now;
			this.servedLevel = Math.max(this.servedLevel, slot.inFlight);
			const starts = this.answeredStarts;
			starts.push(slot.startedAt);
			while (starts[0] < slot.startedAt - 2 * RATE_WINDOW_MS) starts.shift();
			this.grow();
		}
		this.wake();
	}

	/**
	 * A guess's recount is complete. Read late, a 429 finds on the way the requests the service took since it
	 * refused (a full service takes one as it answers one) and the refusals not read yet: the ones taken are its level.
	 * In 17 late readings in a real n8n holding 16: 16 in 13, 15 in 3, 19 in one; the climb back from the guess had cost
	 * a second pause at 17. Fewer than half the level, as after errors, leaves the guess.
	 */
	private recounted(): void {
		const held = this.recountTaken;
		this.recount = undefined;
		if (this.sure || held < this.recountLeast || held >= this.ceiling) return;
		this.sure = true;
		this.ceiling = held + 1;
		this.limit = held;
	}

	private limited(slot: Slot, retryAfterMs: number): void {
		const now = Date.now();
		if (now + retryAfterMs > this.pausedUntil) {
			this.pausedUntil = now + retryAfterMs;
			for (const listener of this.pauseListeners) listener(this.pausedUntil);
		}
		// What the service held when it refused: the requests sent before this one and still unanswered. Our count at
		// sending runs ahead of it (answers sent and not yet read), and a level one too high costs another pause.
		let before = 0;
		for (const seq of this.onTheWay) if (seq < slot.seq) before++;
		// But a refusal only shows that the level it left at was too many: never cut below half of that (nor below half the
		// start). A service that counts requests per second refuses with few in flight, and trusting that count left 1 in
		// flight for 10 minutes. Half the start at most: under CPU load our count at sending includes answers not read yet
		// (37 counted, 16 held), and half of it would stay above the limit and cost a second pause.
		const least = Math.ceil(Math.min(slot.inFlight, START_IN_FLIGHT) / 2);
		// Fewer than that still in flight: the refused request left, or its 429 was read, well after its turn (n8n busy
		// reading items: 0 of 29 sent before it left, 17 sent after it, where the service held 16), or the service counts
		// per second. Then all on the way now, whenever sent, are the better count; a guess all the same (see `sure`).
		const readLate = before < least;
		let held = Math.max(1, readLate ? Math.min(this.onTheWay.size, slot.inFlight - 1) : before, least);
		if (slot.seq < this.cutAt) {
			if (this.byRate) return; // its level came from the rate served: counts in flight say nothing of this limit
			if (readLate) {
				if (!this.sure) this.limit = Math.min(this.limit, held);
				return;
			}
			if (!this.sure) {
				// A refusal of the same congestion read in time: what the service held, in place of the guess.
				this.sure = true;
				this.ceiling = held + 1;
				this.limit = held;
				return;
			}
			// The same congestion: its refusals arrive in any order, the lowest level held is the service's limit.
			this.ceiling = Math.min(this.ceiling, held + 1);
			this.limit = Math.min(this.limit, held);
			return;
		}
		this.byRate = false;
		let perSecond = false;
		if (this.roundTripMs && this.servedLevel >= SERVED_ABOVE * held) {
			// Refused with few in flight right after answers at many more: a per-second window, whose count when it refused
			// was what it took over the last second (answered, and still on the way). At our round trip, that rate is this
			// many in flight; the few in flight (8 of the 350 served, under a 1,000 a second window) would hold it far below.
			const taken = before + this.answeredStarts.filter((t) => t > slot.startedAt - RATE_WINDOW_MS).length;
			held = Math.max(least, Math.floor((taken / RATE_WINDOW_MS) * this.roundTripMs));
			this.byRate = true;
			perSecond = true;
		} else if (
			// Not while climbing back from a guess: its refusal read in time is the reading awaited (`sure`). Answers of
			// requests sent before the guess (at 30+ in flight) made the climb look like a level served well, and a real n8n
			// then read 16 as 8: a second pause, the rest of the run at half speed, and 8 handed on.
			this.sure &&
			slot.inFlight < this.ceiling &&
			slot.inFlight <= this.servedLevel &&
			this.served >= SERVED_ROUND_TRIPS * slot.inFlight &&
			this.roundTripMs
		) {
			// Refused at a level served well for several round trips, not at a probe above it: the service counts requests
			// per second (or serves fewer now). What it served per second since the last pause, at our round trip, it can take.
			const perMs = this.served / Math.max(1000, now - this.servedSince);
			held = Math.min(held, Math.max(least, Math.floor(perMs * this.roundTripMs)));
			this.byRate = true;
		}
		this.servedLevel = 0;
		this.limit = Math.min(this.limit, held);
		// A probe refused (at the level refused last time or above): probe less often. Refused lower: the service changed.
		this.probeAfterMs = held + 1 >= this.ceiling ? Math.min(2 * this.probeAfterMs, PROBE_AFTER_MAX_MS) : PROBE_AFTER_MS;
		// A guess below the level the refusal left at climbs back towards it, one per round trip: a 429 read in time settles it.
		this.sure = perSecond || !readLate || held + 1 >= slot.inFlight;
		this.ceiling = this.sure ? held + 1 : slot.inFlight;
		this.recount = undefined;
		this.recountTaken = 0;
		if (!this.sure && this.onTheWay.size) {
			this.recount = new Set(this.onTheWay);
			this.recountLeast = least;
		}
		this.limitedAt = now;
		this.cutAt = this.sent;
		this.credit = 0;
		this.served = 0;
		this.servedSince = this.pausedUntil;
	}

	private grow(): void {
		if (this.limit >= this.cap) return;
		if (this.ceiling === Number.POSITIVE_INFINITY) {
			// No 429 seen yet: +2 per answer triples the level every round trip, so a service 300 ms away gets 1,000 writes
			// in 1.8 s (n8n's HTTP Request node, all at once: 1.6 s); a limit is still found one refusal over.
			this.limit += GROWTH;
			return;
		}
		if (this.limit + 1 >= this.ceiling && Date.now() - this.limitedAt < this.probeAfterMs) {
			// A guess climbed back to just under the level refused, and served there a round trip: as good as read.
			if (!this.sure && ++this.credit >= this.limit) this.sure = true;
			return; // stay just under the level refused
		}
		if (++this.credit >= this.limit) {
			this.credit = 0;
			this.limit++; // +1 per round trip's worth of good answers
		}
	}
}
