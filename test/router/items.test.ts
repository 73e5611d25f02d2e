/** Many items through one node: order and pairing kept, Continue On Fail gives each failure its own item in place. */
import type { IDataObject } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { getContact, getEach, logins, optIn, warm } from '../harness/many-items';
import { runAction, startCloud4Wi } from '../harness/cloud4wi';

const N = 1000;

let ctx: TestContext;
afterEach(async () => {
	await ctx.sb.close();
});

const cids = () => ctx.sb.data.contacts.map((c) => c.cid).slice(0, N);
test(`${N} items keep their order and pairing`, async () => {
	ctx = await startCloud4Wi({ contacts: N, latencyMs: 5 });
	await warm(ctx);
	const ids = cids();
	const result = await getEach(ctx, ids);
	expect(result.error).toBeUndefined();
	expect(result.json.map((j) => j.cid)).toEqual(ids);
	expect(result.items.map((i) => i.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
	const gets = ctx.sb.requests.filter((r) => r.method === 'GET').map((r) => r.path);
	expect(gets.sort()).toEqual(ids.map((id) => `/v2/customers/${id}`).sort());
	expect(logins(ctx)).toHaveLength(0);
	// They really ran side by side: at some moment many were in flight.
	expect(ctx.sb.maxSeenInFlight).toBeGreaterThan(8);
}, 60_000);

test('Continue On Fail with failing items among many: each failure is its own item, in place, paired', async () => {
	ctx = await startCloud4Wi({ contacts: 300, latencyMs: 5 });
	await warm(ctx);
	const ids = cids().slice(0, 300);
	// Every 7th id does not exist (404 from the service), every 11th is refused before sending (a "/").
	const items: IDataObject[] = ids.map((id, i) => ({ id: i % 11 === 5 ? `${id}/x` : i % 7 === 3 ? `gone-${i}` : id }));
	const result = await runAction(ctx, getContact, items, { continueOnFail: true });
	expect(result.error).toBeUndefined();
	expect(result.items.map((i) => i.pairedItem)).toEqual(items.map((_, item) => ({ item })));
	for (const [i, json] of result.json.entries()) {
		if (i % 11 === 5) expect(json.error).toMatch(/^Contact ID: ".*\/x" contains "\/"/);
		else if (i % 7 === 3) expect(json).toMatchObject({ error: `Contact not found: gone-${i}`, httpCode: '404' });
		else expect(json.cid).toBe(ids[i]);
	}
	// Nothing was sent for the refused ids; every other id was asked for exactly once.
	const asked = ctx.sb.requests.map((r) => r.path.replace('/v2/customers/', ''));
	expect(asked.sort()).toEqual(
		items
			.filter((_, i) => i % 11 !== 5)
			.map((item) => String(item.id))
			.sort(),
	);
}, 60_000);
test('without Continue On Fail, an item that fails stops the writes of the items after it that wait for a place', async () => {
	ctx = await startCloud4Wi({ contacts: 60, latencyMs: 0 });
	await warm(ctx);
	const ids = cids().slice(0, 60);
	// Item 0's contact does not exist (404 at once); the writes of the others take 500 ms, so the first few hold
	// every place when item 0 fails, and the rest are read and waiting for one.
	ctx.sb.addFault({ method: 'PUT', path: '^/v1/customers/[0-9a-f]{24}/policies$', delayMs: 500, times: 100 });
	const items = ids.map((id, i) => ({ id: i === 0 ? 'gone' : id, accepted: true }));
	const result = await runAction(ctx, optIn, items);
	expect(result.error?.context?.itemIndex).toBe(0);
	// The first 16 and the few that took a place as item 0's answer came in (20-21 here); without the check, all 60.
	expect(ctx.sb.requests.filter((r) => r.method === 'PUT').length).toBeLessThanOrEqual(16 + 8);
});
