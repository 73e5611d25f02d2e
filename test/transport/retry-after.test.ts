import { runAction, startCloud4Wi } from '../harness/cloud4wi';
import { scaleTimeLimits } from '../harness/engine';
import { ORG, standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

// At 1/20 of every time limit: back-offs of 25 ms, doubling; the service busy for 150 ms (its 3 s).
const SCALE = 1 / 20;
const BUSY_MS = 3_000 * SCALE;
beforeAll(() => scaleTimeLimits(SCALE));
afterAll(() => scaleTimeLimits(1));
const ITEMS = 10;

let si: StandIn;
afterEach(async () => await si.close());

test.each(['0', '-5', '0x1', '1e-3', 'Thu, 01 Jan 1970 00:00:00 GMT'])(
	'Retry-After %p while the service is busy: at most 4 tries per item in 3 s, and every item gets through',
	async (retryAfter) => {
		let busyUntil = 0;
		si = await standIn((r) => {
			if (r.path !== `/v2/segments/organizations/${ORG}`) return undefined;
			busyUntil ||= Date.now() + BUSY_MS;
			return Date.now() < busyUntil
				? { status: 429, headers: { 'Retry-After': retryAfter }, body: { message: 'Too many requests' } }
				: { body: { segments: [{ id: 's1', name: 'VIP' }] } };
		});
		const result = await runAction(
			si,
			{ resource: 'segment', operation: 'getAll', returnAll: true },
			Array.from({ length: ITEMS }, () => ({})),
			{ continueOnFail: true },
		);
		const api = si.requests.filter((r) => !r.path.startsWith('/v1/sts/login'));
		expect(result.json).toEqual(Array.from({ length: ITEMS }, () => ({ id: 's1', name: 'VIP' })));
		// Tries at 0, 0, 0.5 and 1.5 s at most before the service answers at 3 s; then one that gets through.
		expect(api.length).toBeLessThanOrEqual(ITEMS * 5);
	},
	10_000,
);

/** Variations of a spec-conforming stand-in that the node already handled, kept so that they stay handled. */
test('429 with Retry-After as an HTTP date is waited for, then retried', async () => {
	const ctx = await startCloud4Wi();
	const when = new Date(Date.now() + 2000).toUTCString();
	ctx.sb.addFault({ method: 'GET', path: '/segments/', status: 429, retryAfter: when });
	const started = Date.now();
	const result = await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true });
	expect(result.error).toBeUndefined();
	expect(Date.now() - started).toBeGreaterThanOrEqual(900);
	await ctx.sb.close();
});
