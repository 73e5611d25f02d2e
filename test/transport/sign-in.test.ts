/** Signing in: what n8n-core does with the credential's login, the login answers Cloud4Wi may give, and refused logins. */
import type { TestContext } from '../harness/cloud4wi';
import { CREDENTIAL_ID, runAction, startCloud4Wi, triggerWorkflow } from '../harness/cloud4wi';
import { scaleTimeLimits, testCredential, atScale, buildWorkflow, pollOnce } from '../harness/engine';
import { ORG, standIn, TOKEN } from '../harness/stand-in';
import type { InRequest, Reply, StandIn } from '../harness/stand-in';

/**
 * What `nodes/Cloud4Wi/shared/n8nLogin.ts` relies on in n8n-core, checked through the engine (e2e/adapter.e2e.ts checks
 * the same in a real n8n 2.x and 1.x): given an empty token, `httpRequestWithAuthentication` logs in, stores the token
 * and sends; it sends through the credential's `authenticate`, with the request options it was given and the new token.
 * If n8n changes either, one of these fails.
 */
describe('the n8n login adapter', () => {
	let ctx: TestContext;
	afterEach(async () => {
		scaleTimeLimits(1);
		await ctx.sb.close();
	});

	const getEach = (ids: string[], timeout = 30_000) =>
		runAction(
			ctx,
			{ resource: 'contact', operation: 'get', contactId: '={{ $json.id }}', requestOptions: { timeout } },
			ids.map((id) => ({ id })),
		);

	test('with no token, n8n logs in once, stores the token for the next executions, and sends the request with it', async () => {
		ctx = await startCloud4Wi();
		const [first, second] = ctx.sb.data.contacts.map((c) => c.cid).slice(0, 2);
		const result = await getEach([first]);
		expect(result.error).toBeUndefined();
		expect(ctx.store.logins).toBe(1);
		const stored = ctx.store.stored(CREDENTIAL_ID).sessionToken as string;
		expect(stored).not.toBe('');
		const sent = ctx.sb.requests.filter((r) => r.path === `/v2/customers/${first}`);
		expect(sent.map((r) => r.authorization)).toEqual([`Bearer ${stored}`]);
		ctx.sb.clearRequests();
		expect((await getEach([second])).error).toBeUndefined();
		expect(ctx.store.logins).toBe(1);
		expect(ctx.sb.requests.map((r) => r.authorization)).toEqual([`Bearer ${stored}`]);
	});

	test('the requests waiting for the login go on once the token is known, before the answer of the one that carries it', async () => {
		ctx = await startCloud4Wi();
		const ids = ctx.sb.data.contacts.map((c) => c.cid).slice(0, 5);
		// The first request carries the login; its answer takes 2 s.
		ctx.sb.addFault({ method: 'GET', path: `^/v2/customers/${ids[0]}$`, delayMs: 2_000 });
		const started = Date.now();
		const result = await getEach(ids);
		expect(result.error).toBeUndefined();
		expect(result.json.map((j) => j.cid)).toEqual(ids);
		expect(ctx.store.logins).toBe(1);
		const carried = ctx.sb.requests.find((r) => r.path === `/v2/customers/${ids[0]}`)!;
		const others = ctx.sb.requests.filter((r) => r.path.startsWith('/v2/customers/') && r !== carried);
		expect(others).toHaveLength(4);
		// They reached Cloud4Wi long before the carried request's answer (2 s after it arrived).
		for (const other of others) expect(other.at - carried.at).toBeLessThan(1_000);
		expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
	});

	test("the request that carries the login keeps its own time limit: an answer that never ends is cut at the login's time plus the Timeout", async () => {
		scaleTimeLimits(1 / 20); // the login's limit: 1.5 s
		ctx = await startCloud4Wi();
		// A create is never sent twice, so one try shows the limit: Token > Revoke, whose answer trickles forever.
		ctx.sb.addFault({ method: 'POST', path: '^/v1/sts/logout$', trickleMs: 200 });
		const started = Date.now();
		const result = await runAction(ctx, { resource: 'token', operation: 'revoke', requestOptions: { timeout: 1_000 } });
		const elapsed = Date.now() - started;
		expect(result.error?.message).toBe('Cloud4Wi did not answer within 1 s');
		expect(elapsed).toBeGreaterThanOrEqual(1_000);
		expect(elapsed).toBeLessThan(1_500 + 1_000 + 1_000);
		expect(ctx.store.logins).toBe(1);
		expect(ctx.sb.requests.filter((r) => r.path === '/v1/sts/logout')).toHaveLength(1);
	}, 30_000);
});

/**
 * Login answers a spec-conforming stand-in may give. Spec: "200: body `token` string; the token is also in the
 * Authorization header". Vendor notes, "Status codes the vendor documents for all endpoints": "201 | request accepted".
 * "Where the two disagree, handle both": any 2xx with a token, in the body or only in the header, logs in.
 */
describe('login answers', () => {
	let si: StandIn;
	afterEach(async () => await si.close());

	const segments = (r: InRequest): Reply | undefined => {
		if (r.path !== `/v2/segments/organizations/${ORG}`) return undefined;
		if (r.headers.authorization !== `Bearer ${TOKEN}`) return { status: 401, body: { message: 'Token is invalid' } };
		return { body: { generated: new Date().toISOString(), size: 1, segments: [{ id: 's1', name: 'VIP' }] } };
	};

	const variants: Array<[string, Reply]> = [
		['201 with token in body and header', { status: 201, headers: { Authorization: TOKEN }, body: { token: TOKEN } }],
		['200, token only in the Authorization header, no body', { headers: { Authorization: TOKEN } }],
		[
			'200, token only in the header as "Bearer <jwt>", body {}',
			{ headers: { authorization: `Bearer ${TOKEN}` }, body: {} },
		],
	];

	describe.each(variants)('login answers %s', (_name, login) => {
		const handler = (r: InRequest) => (r.path === '/v1/sts/login/services' ? login : segments(r));

		test('an operation works', async () => {
			si = await standIn(handler);
			const result = await runAction(si, {
				resource: 'segment',
				operation: 'getAll',
				returnAll: true,
			});
			expect(result.error).toBeUndefined();
			expect(result.json).toEqual([{ id: 's1', name: 'VIP' }]);
		});

		test('the Test button says OK', async () => {
			si = await standIn(handler);
			const result = await testCredential(si.store, CREDENTIAL_ID);
			expect(result.status).toBe('OK');
		});
	});
});

/**
 * A refused login reached the user as a NodeApiError without its HTTP status (`httpCode`), in
 * the error and in Continue On Fail items, unlike every other refusal; only the message's text named it.
 */
describe('a refused login', () => {
	let si: StandIn;
	afterEach(async () => await si.close());

	const getContact = { resource: 'contact', operation: 'get', contactId: '={{ $json.cid }}' };
	const asCtx = () => si;

	test.each([401, 403, 400, 503])(
		'a login refused with %s: every item and the poll carry the status',
		async (status) => {
			si = await standIn((r) =>
				r.path === '/v1/sts/login/services' ? { status, body: { message: 'Key disabled (HTTP 999)' } } : undefined,
			);
			const failed = await atScale(1 / 50, () => runAction(asCtx(), getContact, [{ cid: 'c-1' }]));
			expect(failed.error?.message).toMatch(new RegExp(`^Cloud4Wi login failed \\(HTTP ${status}\\): Key disabled`));
			expect(failed.error?.httpCode).toBe(String(status));
			const items = await atScale(1 / 50, () =>
				runAction(asCtx(), getContact, [{ cid: 'c-1' }, { cid: 'c-2' }, { cid: 'c-3' }], { continueOnFail: true }),
			);
			expect(items.json.map((j) => j.httpCode)).toEqual([String(status), String(status), String(status)]);
			const poll = await atScale(1 / 50, () =>
				pollOnce(buildWorkflow(triggerWorkflow({ events: [] })), si.store, 'Trigger').then(
					() => undefined,
					(error: Error & { httpCode?: string }) => error,
				),
			);
			expect(poll?.httpCode).toBe(String(status));
		},
	);

	test('a login with no answer: no status is made up', async () => {
		si = await standIn(() => undefined);
		const store = si.store;
		await si.close(); // nothing listens there any more
		const failed = await runAction({ store }, getContact, [{ cid: 'c-1' }]);
		expect(failed.error?.message).toMatch(/^Cloud4Wi login failed: no answer from/);
		expect(failed.error?.httpCode ?? undefined).toBeUndefined();
		si = await standIn(() => undefined); // for afterEach
	});
});
