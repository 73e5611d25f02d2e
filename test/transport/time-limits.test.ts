/** Time limits: each request's, the login's and the poll's, the Timeout option's range, and their sizes as shipped. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { sleep, NodeOperationError } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import {
	ACTION_TYPE,
	apiCalls,
	CREDENTIAL_ID,
	node,
	runAction,
	startCloud4Wi,
	triggerWorkflow,
} from '../harness/cloud4wi';
import {
	buildWorkflow,
	lastThrownError,
	loadOptionsOf,
	pollOnce,
	scaleTimeLimits,
	testCredential,
} from '../harness/engine';
import { cloud4WiError } from '../../nodes/Cloud4Wi/shared/errors';
import { DEFAULT_TIMEOUT_MS } from '../../nodes/Cloud4Wi/shared/runs';
import { backOff, RATE_LIMIT_RETRIES, RETRIES, timing, waitBeforeRetry } from '../../nodes/Cloud4Wi/shared/timing';

/**
 * A service that accepts the connection and never answers: every request has a time limit, reads, updates and deletes
 * are retried, creates are not, and a poll stays inside n8n's budget. Real sockets against the sandbox, whose faults
 * stall answers. Every time limit runs at 1/20 of its size (`scaleTimeLimits`): the login's 30 s is 1.5 s, a poll's
 * minute on n8n 1.x is 3 s, a request's wait for retries at most 3 s in all. The Timeout option cannot go under a
 * second, so tests that set it keep its own size. The last section pins the sizes as shipped.
 */
describe('a service that does not answer', () => {
	const SCALE = 1 / 20;
	const LOGIN_MS = 30_000 * SCALE;
	beforeAll(() => scaleTimeLimits(SCALE));
	afterAll(() => scaleTimeLimits(1));

	const HANG = 10 * 60_000; // far longer than any limit here: the sandbox's close() cuts it short

	let ctx: TestContext;
	beforeEach(async () => {
		ctx = await startCloud4Wi();
	});
	afterEach(async () => {
		await ctx.sb.close();
	});

	const timeout = (ms: number) => ({ requestOptions: { timeout: ms } });
	const contact = (operation: string, extra: INodeParameters = {}) => ({
		resource: 'contact',
		operation,
		contactId: ctx.sb.data.contacts[0]!.cid,
		...extra,
	});
	const stalled = (method: string) => ctx.sb.requests.filter((r) => r.method === method && r.status === 0);

	describe('time limits', () => {
		test('a read that never answers is tried five times, then fails saying the service did not answer in time', async () => {
			ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/', delayMs: HANG, times: 10 });
			const started = Date.now();
			const result = await runAction(ctx, contact('get', timeout(1000)));
			const elapsed = Date.now() - started;
			expect(result.error?.message).toBe('Cloud4Wi did not answer within 1 s');
			expect(result.error?.description).toMatch(/^Tried 5 times\. Cloud4Wi may be down or slow/);
			expect(lastThrownError()).toMatchObject({ name: 'NodeApiError' });
			expect(apiCalls(ctx.sb)).toHaveLength(5);
			expect(stalled('GET')).toHaveLength(5);
			// Five limits of 1 s and the back-off between them (0.5 + 1 + 2 + 4 s, at scale).
			expect(elapsed).toBeGreaterThanOrEqual(5 * 1000 + 7_500 * SCALE);
			expect(elapsed).toBeLessThan(5 * 1000 + 7_500 * SCALE + 3_000);
		}, 30_000);

		test('a read that times out once is tried again and succeeds', async () => {
			ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/', delayMs: HANG, times: 1 });
			const result = await runAction(ctx, contact('get', timeout(1000)));
			expect(result.error).toBeUndefined();
			expect(result.json).toHaveLength(1);
			expect(apiCalls(ctx.sb)).toHaveLength(2);
		});

		test('a create that times out is sent once and says it may or may not have been applied', async () => {
			ctx.sb.addFault({ method: 'POST', path: '^/v2/customers/', delayMs: HANG, times: 10 });
			const started = Date.now();
			const result = await runAction(ctx, contact('createAccessCode', timeout(1000)));
			expect(Date.now() - started).toBeLessThan(4_000);
			expect(result.error?.message).toBe('Cloud4Wi did not answer within 1 s');
			expect(result.error?.description).toBe(
				'The write may or may not have been applied: check in Cloud4Wi before running it again.',
			);
			expect(apiCalls(ctx.sb).filter((c) => c.startsWith('POST'))).toHaveLength(1);
		});

		test.each([
			[
				'Update Opt-Ins (PUT)',
				'PUT',
				() => contact('updateOptIns', { optIns: { optIn: [{ policy: 'privacy', accepted: true }] } }),
			],
			['Delete (DELETE)', 'DELETE', () => contact('delete')],
		])(
			'an update or delete that times out (%s) is tried five times, as a read',
			async (_, method, params) => {
				ctx.sb.addFault({ method, path: '^/v1/customers/', delayMs: HANG, times: 10 });
				const result = await runAction(ctx, { ...params(), ...timeout(1000) });
				expect(result.error?.message).toBe('Cloud4Wi did not answer within 1 s');
				expect(result.error?.description).toMatch(/^Tried 5 times\. Cloud4Wi may be down or slow/);
				expect(apiCalls(ctx.sb).filter((c) => c.startsWith(method))).toHaveLength(5);
			},
			20_000,
		);

		test('with Continue On Fail, the timed-out item is an error item and the others go on', async () => {
			const [a, b] = [ctx.sb.data.contacts[1]!, ctx.sb.data.contacts[2]!];
			ctx.sb.addFault({ method: 'POST', path: a.cid, delayMs: HANG });
			const result = await runAction(
				ctx,
				{ resource: 'contact', operation: 'createAccessCode', contactId: '={{ $json.id }}', ...timeout(1000) },
				[{ id: a.cid }, { id: b.cid }],
				{ continueOnFail: true },
			);
			expect(result.json[0]).toEqual({
				error: 'Cloud4Wi did not answer within 1 s',
				description: 'The write may or may not have been applied: check in Cloud4Wi before running it again.',
			});
			expect(result.json[1]).toMatchObject({ contactId: b.cid });
			expect(result.json[1].error).toBeUndefined();
			expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		});

		test('a login that never answers fails the run with a clear error instead of holding it', async () => {
			ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', delayMs: HANG });
			const started = Date.now();
			const result = await runAction(ctx, contact('get'));
			expect(Date.now() - started).toBeLessThan(LOGIN_MS + 2_000);
			expect(result.error?.message).toMatch(
				/^Cloud4Wi login failed: no answer from http:\/\/127\.0\.0\.1:\d+\/v1\/sts\/login\/services \(timed out\)/,
			);
			expect(apiCalls(ctx.sb)).toEqual([]);
		});

		test("a login whose answer trickles in and never ends fails after a login's time, like one that never answers", async () => {
			ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', trickleMs: 100 });
			const started = Date.now();
			const result = await runAction(ctx, contact('get'));
			expect(Date.now() - started).toBeLessThan(LOGIN_MS + 2_000);
			expect(result.error?.message).toMatch(/^Cloud4Wi login failed: no answer from .* \(timed out\)/);
			expect(apiCalls(ctx.sb)).toEqual([]);
		});

		test.each([
			['never answers', { delayMs: HANG }, 'ECONNABORTED'],
			['trickles in and never ends', { trickleMs: 100 }, 'ERR_CANCELED'],
		])(
			"the credential's Test button: a test login that %s fails after a login's time, not n8n's 5 minutes",
			async (_, fault, code) => {
				// The first login is n8n's (preAuthentication); the second is the test request itself.
				ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', skip: 1, ...fault });
				const started = Date.now();
				const result = await testCredential(ctx.store, CREDENTIAL_ID);
				expect(Date.now() - started).toBeLessThan(LOGIN_MS + 1_000 + 2_000);
				expect(result).toEqual({ status: 'Error', message: code });
				expect(ctx.sb.requests.filter((r) => r.path === '/v1/sts/login/services')).toHaveLength(2);
			},
		);

		test("a create sent right after a login, whose answer never ends, is cut off at the login's time plus the Timeout", async () => {
			ctx.sb.addFault({ method: 'POST', path: '^/v2/customers/', trickleMs: 100 });
			const started = Date.now();
			const result = await runAction(ctx, contact('createAccessCode', timeout(1000)));
			expect(Date.now() - started).toBeLessThan(LOGIN_MS + 1000 + 2_000);
			expect(result.error?.message).toBe('Cloud4Wi did not answer within 1 s');
			expect(ctx.store.logins).toBe(1);
			expect(apiCalls(ctx.sb)).toHaveLength(1);
		});

		test('an answer that trickles in and never ends is cut off at the Timeout: it limits the whole answer', async () => {
			await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in: a token stored
			ctx.sb.clearRequests();
			ctx.sb.addFault({ method: 'POST', path: '^/v2/customers/', trickleMs: 200 });
			const started = Date.now();
			const result = await runAction(ctx, contact('createAccessCode', timeout(1000)));
			expect(Date.now() - started).toBeLessThan(1000 + 2_000);
			expect(result.error?.message).toBe('Cloud4Wi did not answer within 1 s');
			expect(stalled('POST')).toHaveLength(0); // an answer had begun: status 200 logged, body never finished
		});

		test('a Timeout below one second is refused before anything is sent', async () => {
			const result = await runAction(ctx, contact('get', timeout(10)));
			expect(result.error?.message).toBe(
				'Request Options > Timeout: must be a whole number of milliseconds from 1000 to 3600000 (an hour), got "10"',
			);
			expect(ctx.sb.requests).toEqual([]);
		});
	});

	/** A workflow whose trigger takes signups; `staticData` as an earlier activation saved it. */
	const trigger = (staticData?: IDataObject) => buildWorkflow(triggerWorkflow({ events: ['signup'] }), staticData);

	describe("the trigger's poll with a request that hangs", () => {
		test('a poll whose first page hangs fails inside its budget and changes nothing', async () => {
			const workflow = trigger();
			await pollOnce(workflow, ctx.store, 'Trigger'); // activation: records the start
			const before = JSON.stringify(workflow.staticData);
			ctx.sb.injectEvents([{ type: 'signup' }]);
			ctx.sb.addFault({ method: 'GET', path: '/events$', delayMs: HANG, times: 10 });
			const started = Date.now();
			await expect(pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 4_000)).rejects.toThrow(
				'Cloud4Wi did not answer before the time for this poll ran out',
			);
			expect(Date.now() - started).toBeLessThan(4_000);
			expect(JSON.stringify(workflow.staticData)).toBe(before);
			// The next poll, with the service back, emits the event.
			ctx.sb.clearFaults();
			const { emitted } = await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 4_000);
			expect(emitted).toHaveLength(1);
		}, 20_000);

		test('a 429 asking to come back as late as a request may wait: the poll does not wait out the pause past its budget', async () => {
			const workflow = trigger();
			await pollOnce(workflow, ctx.store, 'Trigger');
			ctx.sb.clearRequests(); // activation's read of the service's clock
			ctx.sb.addFault({ method: 'GET', path: '/events$', status: 429, retryAfter: 3, times: 10 });
			const started = Date.now();
			await expect(pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 2_000)).rejects.toThrow(
				'Cloud4Wi did not answer before the time for this poll ran out',
			);
			expect(Date.now() - started).toBeLessThan(2_000);
			expect(apiCalls(ctx.sb)).toHaveLength(1);
		}, 20_000);

		test('a poll that logs in first, then meets an answer that never ends, still ends inside its budget', async () => {
			// Active since earlier (its state saved), so this process has no token yet: the poll logs in.
			const workflow = trigger({ 'node:Trigger': { state: { since: Date.now(), seen: {} } } });
			ctx.sb.addFault({ method: 'GET', path: '/events$', trickleMs: 200, times: 10 });
			const started = Date.now();
			await expect(pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 4_000)).rejects.toThrow(
				/did not answer before the time for this poll ran out|did not answer within/,
			);
			expect(Date.now() - started).toBeLessThan(4_000);
			const [login, ...reads] = ctx.sb.requests.map((r) => `${r.method} ${r.path}`);
			expect(login).toBe('POST /v1/sts/login/services');
			expect(reads.length).toBeGreaterThan(0);
			expect(reads.every((read) => read.startsWith('GET ') && read.endsWith('/events'))).toBe(true);
		}, 20_000);

		test('a 5xx asking to come back as late as a request may wait: the poll does not sleep past its budget', async () => {
			const workflow = trigger();
			await pollOnce(workflow, ctx.store, 'Trigger');
			ctx.sb.addFault({ method: 'GET', path: '/events$', status: 503, retryAfter: 3, times: 10 });
			const started = Date.now();
			await expect(pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 2_000)).rejects.toThrow(
				'Cloud4Wi did not answer before the time for this poll ran out',
			);
			expect(Date.now() - started).toBeLessThan(2_000);
		}, 20_000);

		test("on n8n 1.x (no poll budget given) a poll still has a deadline: a minute's, inside which it fails and changes nothing", async () => {
			const workflow = trigger();
			await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', null); // activation: records the start
			const before = JSON.stringify(workflow.staticData);
			ctx.sb.clock.advance(1000); // the event comes after activation, whatever the sandbox clock's lag
			ctx.sb.injectEvents([{ type: 'signup' }]);
			ctx.sb.addFault({ method: 'GET', path: '/events$', delayMs: HANG, times: 10 });
			const started = Date.now();
			await expect(pollOnce(workflow, ctx.store, 'Trigger', 'trigger', null)).rejects.toThrow(
				'Cloud4Wi did not answer before the time for this poll ran out',
			);
			const elapsed = Date.now() - started;
			// Requests stop at 90 % of the minute: a try of the default Timeout, a pause, then what is left of 54 s (at scale).
			expect(elapsed).toBeGreaterThanOrEqual(54_000 * SCALE - 500 * SCALE);
			expect(elapsed).toBeLessThan(60_000 * SCALE);
			expect(stalled('GET')).toHaveLength(2);
			expect(JSON.stringify(workflow.staticData)).toBe(before);
			ctx.sb.clearFaults();
			const { emitted } = await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', null);
			expect(emitted).toHaveLength(1);
		});

		test('a later page that hangs: the poll hands over what it read inside its budget, and the next poll goes on from there', async () => {
			const workflow = trigger();
			await pollOnce(workflow, ctx.store, 'Trigger');
			ctx.sb.clock.advance(1000);
			const burst = ctx.sb.injectEvents(
				Array.from({ length: 12_000 }, (_, i) => ({ type: 'signup', createdAt: ctx.sb.clock.now() + i })),
			);
			ctx.sb.clock.advance(60_000);
			ctx.sb.addFault({ method: 'GET', path: '/events$', delayMs: HANG, skip: 1, times: 10 });
			const started = Date.now();
			const first = await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 6_000);
			expect(Date.now() - started).toBeLessThan(6_000);
			expect(first.emitted).toHaveLength(10_000);
			ctx.sb.clearFaults();
			const second = await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 6_000);
			const ids = [...first.emitted!, ...(second.emitted ?? [])].map((i) =>
				String((i.json.event as { id: string }).id),
			);
			expect(ids.sort()).toEqual(burst.map((e) => e.event.id).sort());
		}, 30_000);
	});

	describe('a login shared by many requests', () => {
		const noToken = () =>
			ctx.store.set(CREDENTIAL_ID, 'cloud4WiApi', { ...ctx.store.stored(CREDENTIAL_ID), sessionToken: '' });

		test("a poll's login that never answers: the poll ends inside its budget, not after the login's time", async () => {
			// Active since earlier (its state saved), so this process has no token yet: the poll must log in.
			const workflow = trigger({ 'node:Trigger': { state: { since: Date.now(), seen: {} } } });
			const before = JSON.stringify(workflow.staticData['node:Trigger']);
			noToken();
			ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', delayMs: HANG });
			const started = Date.now();
			await expect(pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 1_000)).rejects.toThrow(
				'Cloud4Wi did not answer before the time for this poll ran out',
			);
			expect(Date.now() - started).toBeLessThan(LOGIN_MS);
			expect(JSON.stringify(workflow.staticData['node:Trigger'])).toBe(before);
			expect(apiCalls(ctx.sb)).toEqual([]);
		}, 20_000);

		test.each(['a poll', 'a dropdown'])(
			"%s that needs a token while another run's slow request carries the login goes on once the token is known",
			async (waiter) => {
				// Active since earlier (its state saved), so this process has no token yet.
				const workflow = trigger({ 'node:Trigger': { state: { since: Date.now(), seen: {} } } });
				noToken();
				// A node run logs in (the login takes 0.5 s) and its read then takes 6 s: it carries the login.
				ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/login/', delayMs: 500 });
				ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/', delayMs: 6_000 });
				const slow = runAction(ctx, contact('get', timeout(60_000)));
				// The other starts once that login reached the service (a busy host may take longer than any fixed wait).
				const loggingIn = () => ctx.sb.requests.some((r) => r.path.startsWith('/v1/sts/login'));
				for (let waited = 0; !loggingIn() && waited < 10_000; waited += 10) await sleep(10);
				const started = Date.now();
				if (waiter === 'a poll') await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 4_000);
				else {
					const options = await loadOptionsOf(ctx.store, node('Cloud4Wi', ACTION_TYPE, {}), 'getLocations');
					expect((options as unknown[]).length).toBeGreaterThan(0);
				}
				expect(Date.now() - started).toBeLessThan(2_000);
				expect(ctx.sb.logins).toBe(1); // one login for both
				expect((await slow).error).toBeUndefined();
				expect(ctx.sb.requests.map((r) => r.method)[0]).toBe('POST'); // the slow run's login came first
			},
			20_000,
		);
	});

	describe('retries Cloud4Wi asks for have a limit in all', () => {
		test('a 429 asking to wait an hour fails the request at once with the hint, not after many pauses', async () => {
			await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // a token stored
			ctx.sb.clearRequests();
			ctx.sb.addFault({ method: 'DELETE', path: '^/v1/customers/', status: 429, retryAfter: 3600, times: 10 });
			const started = Date.now();
			const result = await runAction(ctx, contact('delete'));
			expect(Date.now() - started).toBeLessThan(2_000);
			expect(result.error?.httpCode).toBe('429');
			expect(result.error?.description).toMatch(/up to 3 s while it answers no other request/);
			expect(apiCalls(ctx.sb)).toHaveLength(1);
		});

		test("a read's retries after 503s wait at most their budget in all: a Retry-After over half of it is waited once, not four times", async () => {
			await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true });
			ctx.sb.clearRequests();
			// The budget is 60 s (3 s at scale); Retry-After 31 s (2 s) fits once, not twice.
			ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/', status: 503, retryAfter: 2, times: 10 });
			const started = Date.now();
			const result = await runAction(ctx, contact('get', timeout(1000)));
			const elapsed = Date.now() - started;
			expect(elapsed).toBeGreaterThanOrEqual(2_000);
			expect(elapsed).toBeLessThan(2_000 + 1_500);
			expect(result.error?.httpCode).toBe('503');
			expect(apiCalls(ctx.sb)).toHaveLength(2);
		});
	});
});

/**
 * The Timeout request option had a floor (1000 ms) but no ceiling. Node's timers hold at most 2^31-1 ms: a
 * Timeout from 2^31 ms up fires after ~1 ms, so each request is started and aborted at once (racing its own send: a
 * write "may or may not have been applied"; a read is tried 5 times over 7.5 s, then "did not answer within
 * 2147483.6 s"), and without a stored token the login fails at once as "no token within 30 s"; from 2^32 ms up
 * AbortSignal.timeout throws a RangeError, surfaced with an empty message that names no field. An out-of-range Timeout must be refused like one below 1000: a
 * NodeOperationError naming "Request Options > Timeout", and nothing sent. Max Concurrent Requests is checked the same way
 * (0 would start no request and output nothing).
 */
describe("the Timeout option's range", () => {
	let ctx: TestContext;
	beforeEach(async () => {
		ctx = await startCloud4Wi({ contacts: 3 });
		// A credential in use: a token is stored (a first run logged in).
		const first = await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true });
		expect(first.error).toBeUndefined();
		ctx.sb.clearRequests();
	});
	afterEach(async () => {
		await ctx.sb.close();
	});

	/** A delete with this Request Option: refused naming it, nothing sent, nothing deleted. */
	async function refused(option: INodeParameters, message: RegExp | string) {
		const cid = ctx.sb.data.contacts[0]!.cid;
		const result = await runAction(ctx, {
			resource: 'contact',
			operation: 'delete',
			contactId: cid,
			requestOptions: option,
		});
		expect(result.error?.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
		expect(lastThrownError()).toBeInstanceOf(NodeOperationError);
		expect(ctx.sb.requests).toEqual([]);
		expect(ctx.sb.data.contacts.has(cid)).toBe(true);
	}

	// Before: 2^31..2^32-1 gave a NodeApiError "Cloud4Wi did not answer within 2147483.6 s" after ~1 ms; 2^32 and up a
	// RangeError from AbortSignal.timeout, wrapped with no field name.
	test.each([2 ** 31, 3_000_000_000, 2 ** 32, 10_000_000_000])(
		'Timeout %d ms (past what a timer can hold): refused naming the field, nothing sent, nothing deleted',
		async (ms) => await refused({ timeout: ms }, /^Request Options > Timeout: /),
		30_000,
	);

	test('Timeout 2^31 ms on a read: refused at once, not five tries each cut off after ~1 ms', async () => {
		const result = await runAction(ctx, {
			resource: 'contact',
			operation: 'get',
			contactId: ctx.sb.data.contacts[0]!.cid,
			requestOptions: { timeout: 2 ** 31 },
		});
		expect(result.error?.message).toMatch(/^Request Options > Timeout: /);
		expect(ctx.sb.requests).toEqual([]);
	}, 30_000);

	test.each([0, -1, 1.5, 1001])(
		'Max Concurrent Requests %p: refused naming the field and its range, nothing sent, nothing deleted',
		async (max) =>
			await refused(
				{ maxConcurrentRequests: max },
				`Request Options > Max Concurrent Requests: must be a whole number from 1 to 1000, got "${String(max)}"`,
			),
		30_000,
	);

	test.each([{ timeout: 500 }, { maxConcurrentRequests: 0 }])(
		'Continue On Fail, a Request Option %p out of range: every item comes out with the error, nothing is sent',
		async (option) => {
			// n8n passed the input items through unchanged, so three deletes that were never sent looked done.
			const cids = ctx.sb.data.contacts.map((c) => c.cid);
			const result = await runAction(
				ctx,
				{ resource: 'contact', operation: 'delete', contactId: '={{ $json.id }}', requestOptions: option },
				cids.map((id) => ({ id })),
				{ continueOnFail: true },
			);
			expect(result.items.map((i) => i.pairedItem)).toEqual(cids.map((_, item) => ({ item })));
			for (const { json } of result.items) expect(String(json.error)).toMatch(/^Request Options > /);
			expect(ctx.sb.requests).toEqual([]);
			expect(cids.every((cid) => ctx.sb.data.contacts.has(cid))).toBe(true);
		},
		30_000,
	);
});

/** The production time limits, pinned: tests run them scaled down (scaleTimeLimits), so here they are checked as shipped. */
describe('the time limits as shipped', () => {
	test('the time limits as shipped', () => {
		expect(timing).toEqual({
			answerMs: DEFAULT_TIMEOUT_MS,
			loginMs: 30_000,
			loginWaitMostMs: 10_000,
			backOffMs: 500,
			retryWaitMostMs: 60_000,
			pollBudgetMs: 60_000,
			dropdownMs: 60_000,
		});
		expect([RETRIES, RATE_LIMIT_RETRIES, DEFAULT_TIMEOUT_MS]).toEqual([4, 8, 30_000]);
	});

	test('with the defaults, five tries of a read that never answers end within 3 minutes', () => {
		const backOffs = Array.from({ length: RETRIES }, (_, attempt) => backOff(attempt)).reduce((a, b) => a + b, 0);
		expect(backOffs).toBe(500 + 1000 + 2000 + 4000);
		expect((RETRIES + 1) * DEFAULT_TIMEOUT_MS + backOffs).toBeLessThan(180_000);
	});

	test.each([
		['no Retry-After: the back-off, doubling', undefined, [500, 1000, 2000, 4000]],
		['Retry-After 2 s: asked first, then never less than the back-off before', '2', [2000, 2000, 2000, 2000]],
		['Retry-After 0 asked again: never back to back', '0', [0, 500, 1000, 2000]],
		['an unreadable Retry-After: the back-off', '1e9', [500, 1000, 2000, 4000]],
	])('the wait before a retry, %s', (_, header, waits) => {
		expect([0, 1, 2, 3].map((attempt) => waitBeforeRetry(header, attempt))).toEqual(waits);
	});

	test('the rate-limit message as shipped names the whole budget of waits (tests that run scaled see a twentieth)', () => {
		const error = cloud4WiError(
			node('Cloud4Wi', ACTION_TYPE, {}),
			{ kind: 'status', status: 429, said: 'rate limit exceeded' },
			{ method: 'GET', tries: 9 },
		);
		expect(error.description).toBe(
			"Cloud4Wi kept refusing for its rate limit. A request is tried again 8 times at most, waiting as Cloud4Wi's Retry-After asks, up to 60 s while it answers no other request. Try again later, or lower Max Concurrent Requests.",
		);
	});
});
