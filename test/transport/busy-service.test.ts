import type { TestContext } from '../harness/cloud4wi';
import { actionWorkflow, apiCalls, credentialFor, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { atScale, buildWorkflow, runWorkflow } from '../harness/engine';

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

	test('a 429 that does not clear fails after its retries (60 s of waits) with the service message and a hint', async () => {
		ctx.sb.addFault({ path: '^/v2/segments/', status: 429, retryAfter: 0, times: 10 });
		// The minute of waits is 3 s, each back-off a twentieth.
		const segments = { resource: 'segment', operation: 'getAll', returnAll: true };
		const { error } = await atScale(1 / 20, () => runAction(ctx, segments));
		expect(ctx.sb.requests.filter((r) => r.path.startsWith('/v2/segments/')).map((r) => r.status)).toEqual([
			429, 429, 429, 429, 429, 429, 429, 429,
		]); // "Retry-After: 0" asked again backs off: 0, 0.5, 1 ... 16 s; the eighth retry's 32 s would pass 60 s (at scale)
		expect(error?.message).toBe('Too many requests: rate limit exceeded');
		expect(error?.description).toMatch(
			/^Cloud4Wi kept refusing for its rate limit\. A request is tried again 8 times at most/,
		);
	}, 20_000);
});

describe('a login refused for load', () => {
	let ctx: TestContext;
	beforeEach(async () => (ctx = await startCloud4Wi()));
	afterEach(async () => await ctx.sb.close());
	const logins = () => ctx.sb.requests.filter((r) => r.path === '/v1/sts/login/services').map((r) => r.status);
	const bulk = (n: number) =>
		runAction(
			ctx,
			{ resource: 'contact', operation: 'get', contactId: '={{ $json.cid }}' },
			ctx.sb.data.contacts.map((c) => ({ cid: c.cid })).slice(0, n),
		);

	test('a 429 on the login is waited out and the login goes again: every item of a bulk run succeeds', async () => {
		ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', status: 429, retryAfter: 1, times: 1 });
		const started = Date.now();
		const { error, json } = await bulk(40);
		expect(error).toBeUndefined();
		expect(json).toHaveLength(40);
		expect(logins()).toEqual([429, 200]);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // the Retry-After was honoured
		expect(ctx.store.logins).toBe(1);
		expect(ctx.sb.requests.filter((r) => r.path.startsWith('/v2/customers/')).map((r) => r.status)).toEqual(
			Array(40).fill(200),
		);
	});

	test.each([502, 504])('a gateway %d on the login is busy too: tried again, and the run goes on', async (status) => {
		ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', status, times: 1 });
		const { error, json } = await bulk(3);
		expect(error).toBeUndefined();
		expect(json).toHaveLength(3);
		expect(logins()).toEqual([status, 200]);
	});

	test('a gateway that keeps answering 503 fails the login after three tries, saying the service is busy', async () => {
		ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', status: 503, times: 5 });
		const { error } = await bulk(3);
		expect(logins()).toEqual([503, 503, 503]);
		expect(error?.message).toBe(
			'Cloud4Wi login failed (HTTP 503): Service Unavailable. Cloud4Wi is busy or down: try again in a few minutes.',
		);
		expect(apiCalls(ctx.sb)).toEqual([]);
	}, 15_000);

	test('a Retry-After longer than a login may wait fails at once instead of holding the run', async () => {
		ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', status: 429, retryAfter: 3600, times: 5 });
		const started = Date.now();
		const { error } = await bulk(3);
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(logins()).toEqual([429]);
		expect(error?.message).toMatch(/^Cloud4Wi login failed \(HTTP 429\): Too many requests/);
	});

	test('a login refused for a minute (a per-minute limit) is waited out: the pause, one more login, no item fails', async () => {
		// At a thirtieth of production time: Retry-After 2 s is a per-minute limit's 60 s, past the 10 s a login waits.
		ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', status: 429, retryAfter: 2, times: 1 });
		const started = Date.now();
		const { error, json } = await atScale(1 / 30, () => bulk(40));
		expect(error).toBeUndefined();
		expect(json).toHaveLength(40);
		expect(logins()).toEqual([429, 200]);
		const [refused, next] = ctx.sb.requests.filter((r) => r.path === '/v1/sts/login/services');
		expect(next.at - refused.at).toBeGreaterThanOrEqual(2000); // every request waited for the Retry-After
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(ctx.sb.requests.filter((r) => r.path.startsWith('/v2/customers/')).map((r) => r.status)).toEqual(
			Array(40).fill(200),
		);
	}, 20_000);

	test('a login refused again and again for the rate limit fails the run after a minute of waits, not a login per item', async () => {
		ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', status: 429, retryAfter: 1, times: 100 });
		const started = Date.now();
		const { error } = await atScale(1 / 30, () => bulk(40)); // the minute is 2 s: two pauses of 1 s
		expect(logins()).toEqual([429, 429, 429]);
		expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
		expect(error?.message).toMatch(/^Cloud4Wi login failed \(HTTP 429\): Too many requests/);
		expect(apiCalls(ctx.sb)).toEqual([]);
	}, 20_000);

	test('a login whose answer is lost (the connection cut) is sent again: every item succeeds', async () => {
		ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', destroy: true, times: 1 });
		const { error, json } = await bulk(40);
		expect(error).toBeUndefined();
		expect(json).toHaveLength(40);
		expect(logins()).toHaveLength(2);
		expect(ctx.store.logins).toBe(1);
	});

	test('a login whose answer is lost every time fails after three tries, saying the connection was cut', async () => {
		ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', destroy: true, times: 5 });
		const { error } = await bulk(3);
		expect(logins()).toHaveLength(3);
		expect(error?.message).toMatch(/^Cloud4Wi login failed: no answer from .* \(connection reset/);
		expect(apiCalls(ctx.sb)).toEqual([]);
	});

	test('a wrong secret is not tried again', async () => {
		const wrong = credentialFor(ctx.sb, { clientSecret: 'not-the-secret' });
		const { error } = await runWorkflow(
			buildWorkflow(actionWorkflow({ resource: 'segment', operation: 'getAll', returnAll: true })),
			wrong,
		);
		expect(logins()).toEqual([401]);
		expect(error?.message).toMatch(/^Cloud4Wi login failed \(HTTP 401\)/);
	});

	test('a wrong secret with Continue On Fail, one item at a time: one login, then each item fails with its error', async () => {
		const wrong = credentialFor(ctx.sb, { clientSecret: 'not-the-secret' });
		const contacts = ctx.sb.data.contacts.map((c) => ({ cid: c.cid })).slice(0, 4);
		const parameters = {
			resource: 'contact',
			operation: 'get',
			contactId: '={{ $json.cid }}',
			requestOptions: { maxConcurrentRequests: 1 },
		};
		const result = await runWorkflow(
			buildWorkflow(actionWorkflow(parameters, contacts, { continueOnFail: true })),
			wrong,
		);
		const items = result.output('Cloud4Wi');
		expect(items.map((i) => i.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		for (const { json } of items) expect(String(json.error)).toMatch(/^Cloud4Wi login failed \(HTTP 401\)/);
		expect(logins()).toEqual([401]); // a refused key is not sent again by the later items
		expect(apiCalls(ctx.sb)).toEqual([]);
	});
});
