import type { TestContext } from '../harness/cloud4wi';
import { apiCalls, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { atScale } from '../harness/engine';

const PROXY_PAGE = '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';

let ctx: TestContext;
beforeEach(async () => {
	ctx = await startCloud4Wi({ contacts: 30 });
});
afterEach(async () => {
	await ctx.sb.close();
});

const segments = { resource: 'segment', operation: 'getAll', returnAll: true };
const contacts = { resource: 'contact', operation: 'getAll', returnAll: true };

test("a proxy's HTML 502 page: retried like any 5xx on a read, then an error with the status, no output", async () => {
	ctx.sb.addFault({ path: '^/v2/segments/', status: 502, rawBody: PROXY_PAGE, times: 10 });
	const result = await atScale(1 / 20, () => runAction(ctx, segments)); // the back-offs between the 5 tries: a twentieth
	expect(result.error?.message).toBe('Cloud4Wi answered HTTP 502 with an HTML page instead of JSON');
	expect(result.error?.description).toBe('Cloud4Wi had an internal error. Try again later.');
	expect((result.error as { httpCode?: string }).httpCode).toBe('502');
	expect(result.items).toEqual([]);
	expect(apiCalls(ctx.sb)).toHaveLength(5);
}, 20_000);

test('an HTML page with 200 (a captive portal, a website at the base URL): an error, no output', async () => {
	ctx.sb.addFault({ path: '^/v2/segments/', status: 200, rawBody: PROXY_PAGE });
	const result = await runAction(ctx, segments);
	expect(result.error?.message).toBe('Cloud4Wi answered HTTP 200 with an HTML page instead of JSON');
	expect(result.error?.description).toMatch(/^Usually a proxy or gateway between n8n and Cloud4Wi/);
	expect(result.items).toEqual([]);
	expect(apiCalls(ctx.sb)).toHaveLength(1);
});

test('a 200 whose body is not JSON: an error, no output', async () => {
	ctx.sb.addFault({ path: '^/v2/segments/', status: 200, rawBody: 'OK', contentType: 'text/plain' });
	const result = await runAction(ctx, segments);
	expect(result.error?.message).toBe('Cloud4Wi answered HTTP 200 with a body that is not JSON, or was cut short');
	expect(result.items).toEqual([]);
});

test.each(['null', '"ok"', '42', 'true'])(
	'a 200 whose JSON is %s, not an object: an error, no output',
	async (body) => {
		ctx.sb.addFault({ path: '^/v2/segments/', status: 200, rawBody: body });
		const result = await runAction(ctx, segments);
		expect(result.error?.message).toBe('Cloud4Wi answered HTTP 200 with a body that is not JSON, or was cut short');
		expect(result.items).toEqual([]);
		expect(apiCalls(ctx.sb)).toHaveLength(1);
	},
);

test('a JSON answer cut short mid-body on a read: tried again, and the retry gives the whole list', async () => {
	ctx.sb.addFault({ path: '^/v2/customers/organizations/', truncate: true });
	const result = await runAction(ctx, contacts);
	expect(result.error).toBeUndefined();
	expect(result.json).toHaveLength(30);
	expect(apiCalls(ctx.sb)).toHaveLength(2);
});

test('an answer cut short every time: an error saying so, not a shorter list', async () => {
	ctx.sb.addFault({ path: '^/v2/customers/organizations/', truncate: true, times: 10 });
	const result = await atScale(1 / 20, () => runAction(ctx, contacts));
	expect(result.error?.message).toBe('No complete answer from Cloud4Wi (the answer was cut short)');
	expect(result.error?.description).toMatch(/^Tried 5 times\./);
	expect(result.items).toEqual([]);
}, 20_000);

test('the second page of a Return All cut short every time: the whole run fails rather than return page one alone', async () => {
	ctx = await (async () => {
		await ctx.sb.close();
		return startCloud4Wi({ contacts: 25_000 });
	})();
	ctx.sb.addFault({ path: '^/v2/customers/organizations/', truncate: true, skip: 1, times: 10 });
	const result = await runAction(ctx, contacts);
	expect(result.error?.message).toBe('No complete answer from Cloud4Wi (the answer was cut short)');
	expect(result.items).toEqual([]);
}, 30_000);

test('an answer that never ends is read up to 64 MB, then fails at once (a read too: not tried again)', async () => {
	ctx.sb.addFault({ path: '^/v2/segments/', endless: true, times: 10 });
	const result = await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true });
	expect(result.error?.message).toBe("Cloud4Wi's answer was larger than 64 MB and was not read to the end");
	expect(result.error?.description).toMatch(/^Cloud4Wi pages its lists in far smaller answers/);
	expect(apiCalls(ctx.sb)).toEqual([`GET /v2/segments/organizations/${ctx.sb.credentials.organizationId}`]);
});

test('an update whose answer is cut short is sent again (the same state twice), and the item succeeds', async () => {
	const cid = ctx.sb.data.contacts[0]!.cid;
	ctx.sb.addFault({ method: 'PUT', truncate: true });
	const result = await runAction(ctx, {
		resource: 'contact',
		operation: 'updateOptIns',
		contactId: cid,
		optIns: { optIn: [{ policy: 'privacy', accepted: true }] },
	});
	expect(result.error).toBeUndefined();
	expect(apiCalls(ctx.sb).filter((c) => c.startsWith('PUT'))).toHaveLength(2);
	const privacy = ctx.sb.data.contacts.get(cid)!.policies.find((p) => p.name === 'privacy');
	expect(privacy?.accepted).toBe(true);
});

test('a create whose answer is cut short is not sent again, and its error says it may have been applied', async () => {
	ctx.sb.addFault({ method: 'POST', path: '/otp$', truncate: true });
	const cid = ctx.sb.data.contacts[0]!.cid;
	const result = await runAction(ctx, { resource: 'contact', operation: 'createAccessCode', contactId: cid });
	expect(result.error?.message).toBe('No complete answer from Cloud4Wi (the answer was cut short)');
	expect(result.error?.description).toBe(
		'The write may or may not have been applied: check in Cloud4Wi before running it again.',
	);
	expect(apiCalls(ctx.sb).filter((c) => c.startsWith('POST'))).toHaveLength(1);
});
