import type { IDataObject } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { runAction, startCloud4Wi } from '../harness/cloud4wi';

let ctx: TestContext;
beforeEach(async () => {
	ctx = await startCloud4Wi({ contacts: 50 });
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in up front
	ctx.sb.clearRequests();
});
afterEach(async () => await ctx.sb.close());

const CONTACTS = '^/v2/customers/organizations/';
const generated = () => new Date(ctx.sb.clock.now()).toISOString();
/** One contact page as Cloud4Wi writes it: the scroll's totalCount, the page's count, the scroll id. */
const contactPage = (customers: IDataObject[], totalCount: number) => ({
	generated: generated(),
	totalCount,
	count: customers.length,
	sId: 'scroll-1',
	customers,
});
const contacts = (...indexes: number[]) => indexes.map((i) => ({ ...ctx.sb.data.contacts[i] }));
const cids = (records: IDataObject[]) => records.map((r) => String(r.cid));
const contactPages = () => ctx.sb.requests.filter((r) => /^\/v2\/customers\/organizations\//.test(r.path)).length;

test('Contact Get Many, Return All: scroll pages that overlap by one (each starts with the last record of the page before) still give every contact of the totalCount', async () => {
	// 4 contacts, pages of 2 as the service serves them, each later page repeating the boundary record.
	for (const page of [contacts(0, 1), contacts(1, 2), contacts(2, 3), []]) {
		ctx.sb.addFault({ method: 'GET', path: CONTACTS, status: 200, body: contactPage(page, 4) });
	}
	const result = await runAction(ctx, { resource: 'contact', operation: 'getAll', returnAll: true });
	expect(result.error).toBeUndefined();
	// Correct: the 4 contacts the service announced, once each. The repeats counted towards totalCount ended it at 3.
	expect(cids(result.json)).toEqual(cids(contacts(0, 1, 2, 3)));
});

test('Contact Get Many, Return All: a scroll page that comes back empty before the announced totalCount does not end the list silently', async () => {
	// A scroll that expired (or was dropped) answered with 200 and no records, though 2 of the 4 announced are unread.
	ctx.sb.addFault({ method: 'GET', path: CONTACTS, status: 200, body: contactPage(contacts(0, 1), 4) });
	ctx.sb.addFault({ method: 'GET', path: CONTACTS, status: 200, body: contactPage([], 4) });
	const result = await runAction(ctx, { resource: 'contact', operation: 'getAll', returnAll: true });
	expect(contactPages()).toBe(2);
	// Correct: an error saying the list ended short (as for a missing scroll id), not 2 of 4 contacts as if complete.
	expect(result.error).toBeDefined();
	expect(result.json).toEqual([]);
});

/** A contact with 10,050 login events, a minute apart over the last weeks: more than one answer can hold. */
function contactWith10050Events(): string {
	const customerId = ctx.sb.data.contacts[0]!.cid;
	const start = ctx.sb.clock.now() - 20 * 24 * 3600_000;
	ctx.sb.injectEvents(
		Array.from({ length: 10_050 }, (_, i) => ({ type: 'login' as const, customerId, createdAt: start + i * 60_000 })),
	);
	return customerId;
}

test('Event Get Many for Contact, Return All: a contact with more than 10,000 events does not come back cut to 10,000 without a word', async () => {
	const customerId = contactWith10050Events();
	const result = await runAction(ctx, {
		resource: 'event',
		operation: 'getAllForContact',
		contactId: customerId,
		returnAll: true,
	});
	const mine = ctx.sb.data.events.filter((e) => e.customerId === customerId).length;
	expect(mine).toBeGreaterThan(10_000);
	// Never the first 10,000 as if they were all: the list cannot page, so the node says it was cut (one request sent).
	expect(result.error?.message).toBe(
		'This contact has more than 10,000 events matching, the most Cloud4Wi returns in one answer',
	);
	expect(result.json).toEqual([]);
	expect(ctx.sb.requests.filter((r) => r.path.includes('/events'))).toHaveLength(1);
});

test('Event Get Many for Contact with a Limit under 10,000: the first events, no error', async () => {
	const customerId = contactWith10050Events();
	const result = await runAction(ctx, {
		resource: 'event',
		operation: 'getAllForContact',
		contactId: customerId,
		returnAll: false,
		limit: 500,
	});
	expect(result.error).toBeUndefined();
	expect(result.json).toHaveLength(500);
	expect(ctx.sb.requests.filter((r) => r.path.includes('/events')).map((r) => r.query.size)).toEqual(['500']);
});
