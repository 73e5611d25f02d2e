/** Rate limits in bulk work: a 429 is retried after Retry-After for reads and writes alike, a bounded number of times. */
import type { TestContext } from '../harness/cloud4wi';
import { runAction, startCloud4Wi } from '../harness/cloud4wi';

describe('429 Too Many Requests', () => {
	let ctx: TestContext;
	beforeAll(async () => (ctx = await startCloud4Wi()));
	afterAll(async () => await ctx.sb.close());
	beforeEach(() => {
		ctx.sb.clearRequests();
		ctx.sb.clearFaults();
	});

	test('a write refused with 429 goes again after Retry-After and is applied once', async () => {
		const location = ctx.sb.data.locations[0];
		ctx.sb.addFault({ method: 'PUT', path: '/locations/', status: 429, retryAfter: 0, times: 2 });
		const { error, json } = await runAction(ctx, {
			resource: 'location',
			operation: 'update',
			locationId: location.id,
			updateFields: { name: 'Flagship Store' },
		});
		expect(error).toBeUndefined();
		const puts = ctx.sb.requests.filter((r) => r.method === 'PUT');
		expect(puts.map((r) => r.status)).toEqual([429, 429, 200]);
		expect(puts.every((r) => JSON.stringify(r.body) === JSON.stringify({ name: 'Flagship Store' }))).toBe(true);
		expect(json).toEqual([expect.objectContaining({ locationId: location.id })]);
		expect(ctx.sb.data.locations.find((l) => l.id === location.id)?.name).toBe('Flagship Store');
	});

	test('a 429 that does not clear fails after eight retries with the service message and a hint', async () => {
		ctx.sb.addFault({ path: '^/v2/segments/', status: 429, retryAfter: 0, times: 10 });
		const { error } = await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true });
		expect(ctx.sb.requests.filter((r) => r.path.startsWith('/v2/segments/')).map((r) => r.status)).toEqual([
			429, 429, 429, 429, 429, 429, 429, 429, 429,
		]);
		expect(error?.message).toBe('Too many requests: rate limit exceeded');
		expect(error?.description).toMatch(/rate limit was reached and stayed reached after 8 retries/);
	});
});
