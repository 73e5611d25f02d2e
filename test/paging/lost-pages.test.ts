import type { TestContext } from '../harness/cloud4wi';
import { runAction, startCloud4Wi } from '../harness/cloud4wi';

let ctx: TestContext;
afterEach(async () => await ctx.sb.close());

const EVENTS = '^/v1/organizations/[^/]+/events$';
const eventReads = () =>
	ctx.sb.requests
		.filter((r) => /\/events$/.test(r.path))
		.map((r) => `${r.query.scrollId ? 'next' : 'open'} ${r.status}`);
const ids = (records: Array<{ event?: unknown }>) => records.map((r) => (r.event as { id: string }).id);

/** A service with more than one page of `options`' records (pages of 10,000), logged in up front. */
async function start(options: Parameters<typeof startCloud4Wi>[0]) {
	ctx = await startCloud4Wi(options);
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true });
	ctx.sb.clearRequests();
}

test.each([
	['cut halfway', { truncate: true }],
	['answered 502 by a gateway', { status: 502 }],
])(
	'Event Get Many, Return All: a scroll page %s is read again from the start, and every event comes once',
	async (_, fault) => {
		await start({ events: 12_000 });
		ctx.sb.addFault({ method: 'GET', path: EVENTS, skip: 1, ...fault });
		const { error, json } = await runAction(ctx, { resource: 'event', operation: 'getAll', returnAll: true });
		expect(error).toBeUndefined();
		const all = ids(ctx.sb.data.events as Array<{ event?: unknown }>);
		expect(json.length).toBe(all.length);
		expect(new Set(ids(json)).size).toBe(all.length);
		expect(eventReads()).toEqual([
			'open 200',
			`next ${'status' in fault ? fault.status : 200}`, // the scroll moved past the page whose answer was lost
			'open 200',
			'next 200',
		]);
	},
);

test('a scroll page lost every time: the listing stops with the error after reading the list again 3 times', async () => {
	await start({ events: 12_000 });
	// Every second events request, the next page after each open (a fault's skip counts the requests it sees).
	for (const skip of [1, 2, 3, 4]) ctx.sb.addFault({ method: 'GET', path: EVENTS, skip, truncate: true });
	const { error } = await runAction(ctx, { resource: 'event', operation: 'getAll', returnAll: true });
	expect(error?.message).toMatch(/^No complete answer from Cloud4Wi/);
	expect(eventReads()).toEqual(Array(4).fill(['open 200', 'next 200']).flat());
});

test('Contact Get Many, Return All: contacts deleted before the list is read again do not end it early', async () => {
	// The reading again counted the 3 contacts handed on in the first pass, and deleted since, toward
	// the new totalCount, and stopped a page early with no error (20,003 handed on, one live contact missing).
	await start({ contacts: 20_004 });
	const CONTACTS = '^/v2/customers/organizations/';
	ctx.sb.addFault({ method: 'GET', path: CONTACTS, skip: 1, delayMs: 300, truncate: true }); // page 2, served and cut
	const gone = [5, 6, 7].map((i) => ctx.sb.data.contacts.cidOf(i)); // on page 1
	const deleting = setInterval(() => {
		if (!ctx.sb.requests.some((r) => new RegExp(CONTACTS).test(r.path) && r.query.sid)) return;
		clearInterval(deleting);
		for (const cid of gone) ctx.sb.data.contacts.delete(cid); // while page 2's answer is on its way
	}, 5);
	const { error, json } = await runAction(ctx, { resource: 'contact', operation: 'getAll', returnAll: true });
	clearInterval(deleting);
	expect(error).toBeUndefined();
	const handed = new Set(json.map((c) => String(c.cid)));
	expect(ctx.sb.data.contacts.map((c) => c.cid).filter((cid) => !handed.has(cid))).toEqual([]);
	expect(handed.size).toBe(json.length);
});
