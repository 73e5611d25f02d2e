import type { Learned, Slot } from '../../nodes/Cloud4Wi/shared/limiter';
import { Limiter } from '../../nodes/Cloud4Wi/shared/limiter';
import type { Model } from './simulation';
import { after, run, send, Service, until } from './simulation';

beforeEach(() => jest.useFakeTimers());
afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
});

const inFlight16: Model = { inFlight: 16, latencyMs: 20, retryAfterMs: 300 };
const slow16: Model = { ...inFlight16, slowRefusals: true };
const perSecond400: Model = { perSecond: 400, latencyMs: 20, retryAfterMs: 1000 };

describe('an in-flight limit', () => {
	test.each([
		['refusing at once', inFlight16],
		['whose refusals are as slow as answers and hold a place', slow16],
	])(
		'%s: one pause, then the service limit in flight',
		async (_, model) => {
			const limiter = new Limiter();
			const service = new Service(model);
			await run(limiter, service, model, 600);
			expect(service.pauses).toBe(1);
			expect(limiter.learned()?.refusedLevel).toBe(17); // the level kept: 16, a 429 above it
			// The rest of the run at the limit: the service served 16 at once after the pause.
			expect(service.mostServed).toBe(16);
		},
		20_000,
	);

	test('a later run uses what the first learned: no refusal at all', async () => {
		const first = new Limiter();
		await run(first, new Service(inFlight16), inFlight16, 300);
		const service = new Service(inFlight16);
		await run(new Limiter(first.learned()), service, inFlight16, 300);
		expect(service.refused).toBe(0);
		expect(service.mostServed).toBe(16);
	}, 20_000);

	test.each([
		['slow refusals, answers spread by 30 %', { ...slow16, latencyMs: 10, spreadMs: 3 }, 1],
		['sends out of order', { ...inFlight16, latencyMs: 10, spreadMs: 3, wayMs: 20 }, 3 * 7919],
	])(
		'%s: the limit is read from the refusals started first, so the next run is not refused',
		async (_, model, seed) => {
			const first = new Limiter();
			await run(first, new Service(model, seed), model, 3000);
			expect(first.learned()!.refusedLevel - 1).toBeLessThanOrEqual(16); // one read late counted the later answers
			const service = new Service(model, seed);
			await run(new Limiter(first.learned()), service, model, 1000);
			expect(service.refused).toBe(0);
		},
		20_000,
	);
});

describe('a per-second limit', () => {
	test('two pauses at most, then under the rate without refusals', async () => {
		const limiter = new Limiter();
		const service = new Service(perSecond400);
		const { ms } = await run(limiter, service, perSecond400, 2400);
		// The first counts what the climb took in the last second; the second, a second later, counts as many since its
		// pause, so the limit is a rate. Then no more.
		expect(service.pauses).toBeLessThanOrEqual(2);
		// Starts paced at what a window took, a tenth under: 360 a second.
		expect(limiter.learned()!.perSecond).toBeGreaterThanOrEqual(340);
		expect(limiter.learned()!.perSecond).toBeLessThanOrEqual(380);
		// 2,400 at 400 a second is 5 s after the first second; two pauses of a second, a tenth under: about 8 s.
		expect(ms).toBeLessThan(10_000);
	}, 20_000);

	test('a few a second: starts paced at the rate, not a refusal each second; the next process starts so', async () => {
		// 10 a second at 40 ms answers is less than one in flight: no count of places can keep under it.
		const tenASecond: Model = { perSecond: 10, latencyMs: 40, retryAfterMs: 1000 };
		const first = new Limiter();
		const service = new Service(tenASecond);
		const { ms } = await run(first, service, tenASecond, 150);
		// 14 with starts paced by round trips: one each second; 4 when a window had to take a whole level, though the second
		// before may still count one of its calls.
		expect(service.pauses).toBeLessThanOrEqual(3);
		expect(ms).toBeLessThan(18_000); // 14 s after the first second, and the pauses
		const next = new Service(tenASecond);
		await run(new Limiter(first.learned()), next, tenASecond, 50);
		expect(next.refused).toBe(0);
	}, 20_000);

	test('an in-flight limit read one high is not taken for a rate when its refusal comes late', async () => {
		// Read 17 where the service holds 16, with sends spread over the round trip: the refusal comes in the second round.
		const limiter = new Limiter({ refusedLevel: 18, refusedAt: Date.now(), probeAfterMs: 600_000 });
		const service = new Service(inFlight16);
		await run(limiter, service, inFlight16, 600);
		expect(limiter.learned()?.refusedLevel).toBe(17);
		expect(service.pauses).toBe(1);
	}, 20_000);

	test('a service that takes 2 at once is not taken for a rate: its refusals come below the level, not at it', async () => {
		const model: Model = { inFlight: 2, latencyMs: 10, retryAfterMs: 1000 };
		const limiter = new Limiter();
		const service = new Service(model);
		const { ms } = await run(limiter, service, model, 600);
		expect(limiter.learned()).toEqual(expect.objectContaining({ refusedLevel: 3 }));
		expect(limiter.learned()?.perSecond).toBeUndefined();
		expect(ms).toBeLessThan(10_000); // 600 at 2 in flight: 3.3 s and three 1 s pauses; read as a rate, a minute
	}, 20_000);
});

describe('runs that share a credential', () => {
	test('one with Max Concurrent Requests 1 beside one without: the account level is shared, one pause for both', async () => {
		const limiter = new Limiter();
		const service = new Service(inFlight16);
		const [one, many] = await until(
			Promise.all([run(limiter, service, inFlight16, 100, 1), run(limiter, service, inFlight16, 600)]),
		);
		expect(one.mostOfRun).toBe(1);
		expect(many.mostOfRun).toBeGreaterThan(8);
		expect(service.pauses).toBe(1);
	}, 20_000);
});

describe('queue mode: two processes, each with its own limiter, share one service', () => {
	test('the one that starts beside a busy neighbour is not left with a share of 1: the job is within 2x the floor', async () => {
		const service = new Service(inFlight16);
		const [a, b] = [new Limiter(), new Limiter()];
		const started = performance.now();
		// b starts first and fills the service; a starts 30 ms later and is refused at once.
		await until(Promise.all([send(b, service, inFlight16, 800), send(a, service, inFlight16, 800, 800, 30)]));
		const floor = (1600 * inFlight16.latencyMs) / 16;
		expect(performance.now() - started).toBeLessThanOrEqual(2 * floor);
		expect(a.learned()!.refusedLevel).toBeGreaterThan(8);
	}, 20_000);
});

describe('the climb before any 429', () => {
	test('starts at 16 in flight; each good answer lets two more go', async () => {
		const limiter = new Limiter();
		const granted: Slot[] = [];
		for (let i = 0; i < 100; i++) void limiter.acquire().then((slot) => granted.push(slot!));
		await after(50);
		expect(granted).toHaveLength(16);
		for (const slot of granted.slice(0, 4)) limiter.release(slot, 'answered');
		await after(50);
		expect(granted).toHaveLength(16 + 4 + 8);
	});

	test('a full line that hears nothing for 100 ms doubles: a service a second away does not slow the climb', async () => {
		const limiter = new Limiter();
		const granted: Slot[] = [];
		for (let i = 0; i < 200; i++) void limiter.acquire().then((slot) => granted.push(slot!));
		await after(50);
		expect(granted).toHaveLength(16);
		await after(120);
		expect(granted).toHaveLength(32);
		await after(100);
		expect(granted).toHaveLength(64);
	});

	test('a new run on an idle line sends at most 32 at once while no 429 was ever met', async () => {
		const limiter = new Limiter();
		await run(limiter, new Service({ latencyMs: 5, retryAfterMs: 0 }), { latencyMs: 5, retryAfterMs: 0 }, 500);
		const granted: Slot[] = [];
		for (let i = 0; i < 100; i++) void limiter.acquire().then((slot) => granted.push(slot!));
		await after(50);
		expect(granted).toHaveLength(32);
	});

	test('while n8n itself runs late, each good answer adds little: the climb does not outrun it', async () => {
		let late = 0; // how far n8n's event loop has fallen behind the timers it was asked to run
		jest.useFakeTimers({ doNotFake: ['performance'] });
		jest.spyOn(performance, 'now').mockImplementation(() => Date.now() + late);
		const limiter = new Limiter();
		const granted: Slot[] = [];
		for (let i = 0; i < 100; i++) void limiter.acquire().then((slot) => granted.push(slot!));
		await after(5);
		expect(granted).toHaveLength(16);
		late += 40; // n8n busy with its own work for 40 ms: the climb's next 1 ms timer runs 40 ms late
		await after(1);
		for (const slot of granted.slice(0, 4)) limiter.release(slot, 'answered');
		await after(20);
		expect(granted).toHaveLength(16 + 4 + 1); // +1/16 each: 16.25, one more place (+2 each would give 8)
	});
});

describe('the pause and the probe', () => {
	test('a 429 pauses every request for its Retry-After', async () => {
		const limiter = new Limiter();
		const granted: Slot[] = [];
		for (let i = 0; i < 40; i++) void limiter.acquire().then((slot) => granted.push(slot!));
		await after(30);
		limiter.release(granted[15], 'limited', 300);
		for (const slot of granted.slice(0, 15)) limiter.release(slot, 'answered');
		await after(200);
		expect(granted).toHaveLength(16); // every place is free, but the pause holds them
		await after(200);
		expect(granted).toHaveLength(16 + 15); // then the level read: 15 were on the way when the refused one left
	});

	test('a wait for a place ends at the deadline, and in a cancelled execution', async () => {
		const limiter = new Limiter({ refusedLevel: 2, refusedAt: Date.now(), probeAfterMs: 600_000 }); // one at a time
		await until(limiter.acquire());
		expect(await until(limiter.acquire({ deadline: Date.now() + 50 }))).toBeUndefined();
		const cancel = new AbortController();
		const waiting = limiter.acquire({ signal: cancel.signal });
		cancel.abort();
		expect(await until(waiting)).toBeUndefined();
	});

	test('each refused probe doubles the wait before the next (10, 20, 40 minutes); a limit found lower is tried again in 10 s', async () => {
		const minutes = (n: number) => n * 60_000;
		const limiter = new Limiter({ refusedLevel: 17, refusedAt: Date.now() - minutes(11), probeAfterMs: minutes(10) });
		const service = new Service(inFlight16);
		await run(limiter, service, inFlight16, 300); // the probe is due: 17 tried, refused
		expect(service.pauses).toBe(1);
		expect(limiter.learned()).toMatchObject({ refusedLevel: 17, probeAfterMs: minutes(20) });
		await jest.advanceTimersByTimeAsync(minutes(10));
		await run(limiter, new Service(inFlight16), inFlight16, 300); // not due yet: no refusal
		expect(limiter.learned()).toMatchObject({ probeAfterMs: minutes(20) });
		await jest.advanceTimersByTimeAsync(minutes(11));
		await run(limiter, new Service(inFlight16), inFlight16, 300);
		expect(limiter.learned()).toMatchObject({ refusedLevel: 17, probeAfterMs: minutes(40) });
		const lower: Model = { ...inFlight16, inFlight: 12 };
		await run(limiter, new Service(lower), lower, 300);
		// Refused under the limit: a neighbour took a share, or Cloud4Wi changed. Tried again in 10 s, not 10 minutes.
		expect(limiter.learned()).toMatchObject({ refusedLevel: 13, probeAfterMs: 10_000 });
	}, 20_000);

	test('the wait before a probe doubles up to 8 hours, not past it', async () => {
		const hours = (n: number) => n * 3_600_000;
		const limiter = new Limiter({
			refusedLevel: 17,
			refusedAt: Date.now() - hours(8) - 60_000,
			probeAfterMs: hours(8),
		});
		const service = new Service(inFlight16);
		await run(limiter, service, inFlight16, 300); // the probe is due: 17 tried, refused
		expect(service.pauses).toBe(1);
		expect(limiter.learned()).toMatchObject({ refusedLevel: 17, probeAfterMs: hours(8) });
	}, 20_000);

	test('a count corrected right after its pause is not a fall: no probe 10 s later', async () => {
		// 4 at once: the first count is raised to 8 (half the level); the next pause reads 4 within a round trip.
		const fourAtOnce: Model = { inFlight: 4, latencyMs: 40, retryAfterMs: 1000 };
		const limiter = new Limiter();
		const service = new Service(fourAtOnce);
		await run(limiter, service, fourAtOnce, 1200); // 12 s at 4 at once
		expect(service.pauses).toBe(2); // a third, 10 s in, when it was taken for a limit that fell
		expect(limiter.learned()).toMatchObject({ refusedLevel: 5, probeAfterMs: 600_000 });
	}, 20_000);

	test('what was learned goes to the next process as it is; values out of range are not used', () => {
		const now = Date.now();
		const known: Learned = { refusedLevel: 17, refusedAt: now - 5 * 60_000, probeAfterMs: 10 * 60_000 };
		const limiter = new Limiter(known);
		expect(limiter.learned()).toEqual(known);
		// Read again a fraction of a millisecond later (the wall clock counts whole ones): the same, so not written again.
		jest.advanceTimersByTime(0.6);
		expect(limiter.learned()).toEqual(known);
		// Values out of range, or from the future, are not used.
		// A level of 0, over the most it may send (1,000), or not a number (the workflow's data may be edited by hand).
		for (const refusedLevel of [0, 1002, Number.NaN, '17' as never])
			expect(new Limiter({ ...known, refusedLevel }).learned()).toBeUndefined();
		expect(new Limiter({ ...known, refusedAt: now + 60_000 }).learned()).toBeUndefined();
		expect(new Limiter({ ...known, probeAfterMs: 1 }).learned()).toBeUndefined();
		// A rate goes too, when there is one and it is a number of requests a second.
		expect(new Limiter({ ...known, perSecond: 9 }).learned()).toEqual({ ...known, perSecond: 9 });
		for (const perSecond of [-1, Number.NaN, Number.POSITIVE_INFINITY, '9' as never])
			expect(new Limiter({ ...known, perSecond }).learned()).toEqual(known);
	});
});
