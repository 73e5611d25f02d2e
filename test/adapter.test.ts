/**
 * What `nodes/Cloud4Wi/shared/n8nLogin.ts` relies on in n8n-core, checked through the engine (e2e/adapter.e2e.ts checks
 * the same in a real n8n 2.x and 1.x): given an empty token, `httpRequestWithAuthentication` logs in, stores the token
 * and sends; it sends through the credential's `authenticate`, with the request options it was given and the new token.
 * If n8n changes either, one of these fails.
 */
import type { TestContext } from './harness/cloud4wi';
import { CREDENTIAL_ID, runAction, startCloud4Wi } from './harness/cloud4wi';
import { scaleTimeLimits } from './harness/engine';

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
