import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Hotspot, LoggedRequest } from '../sandbox';
import type { TestContext } from '../harness/cloud4wi';
import { runAction, startCloud4Wi } from '../harness/cloud4wi';
import { lastThrownError } from '../harness/engine';

const HOTSPOTS = 2_500;
/** Return All's page: 1,000 hotspots, 10,000 records of a scroll list. */
const OFFSET_PAGE = 1_000;
const SCROLL_PAGE = 10_000;

let ctx: TestContext;
let org: string;

beforeEach(async () => {
	ctx = await startCloud4Wi({ hotspots: HOTSPOTS, contacts: 50 });
	org = ctx.sb.organizationId;
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in up front
	ctx.sb.clearRequests();
});
afterEach(async () => await ctx.sb.close());

const HOTSPOT_PATH = '^/v3/hotspots/organizations/';
const apiRequests = (path: string): LoggedRequest[] => ctx.sb.requests.filter((r) => r.path === path);
const hotspotQueries = () => apiRequests(`/v3/hotspots/organizations/${org}`).map((r) => r.query);
const offsets = (...values: number[]) => values.map((offset) => ({ limit: '1000', offset: String(offset) }));

/** The organization's live hotspots in the sandbox's list order. */
const live = (): Hotspot[] =>
	ctx.sb.data.hotspots
		.filter((h) => !h.deleted && h.organizationId === org)
		.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : 1));

/** Runs `change` once the second page has been asked for, while a fault holds its answer back. */
async function onSecondPage(change: () => void): Promise<void> {
	ctx.sb.addFault({ method: 'GET', path: HOTSPOT_PATH, skip: 1, delayMs: 300 });
	while (ctx.sb.requests.filter((r) => r.path.startsWith('/v3/hotspots/organizations/')).length < 2) {
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
	change();
}

/** WiFi connections have no id: records told apart by content only, a minute apart. */
const connection = (n: number) => ({
	customerId: `c${n % 7}`,
	start: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
	duration: 60,
	macAddressClient: '02:00:00:00:00:01',
});
const connections = (from: number, count: number) => Array.from({ length: count }, (_, i) => connection(from + i));

const idsOf = (records: IDataObject[]) => records.map((r) => String(r.id));
const repeatedIn = (ids: string[]) => ids.filter((id, i) => ids.indexOf(id) !== i);

describe('Hotspot Get Many, Return All, while the list changes', () => {
	test('a hotspot of page 1 deleted before page 2: read again, every hotspot once, none missing', async () => {
		const before = live();
		expect(before).toHaveLength(HOTSPOTS);
		const [result] = await Promise.all([
			runAction(ctx, { resource: 'hotspot', operation: 'getAll', returnAll: true }),
			onSecondPage(() => (before[10].deleted = true)),
		]);
		expect(result.error).toBeUndefined();
		const ids = idsOf(result.json);
		expect(repeatedIn(ids)).toEqual([]);
		// Every hotspot live now, and the deleted one read before it went, in list order.
		expect(ids).toEqual(before.map((h) => h.id));
		expect(live().every((h) => ids.includes(h.id))).toBe(true);
		// The count fell from 2,500 to 2,499 on page 2: the list was read again from the start, once.
		expect(hotspotQueries()).toEqual(offsets(0, 999, 0, 999, 1998));
	});

	test('a hotspot restored before page 2: read again, it comes out once, and nothing twice', async () => {
		const all = live();
		all[10].deleted = true; // deleted before the listing starts ...
		const [result] = await Promise.all([
			runAction(ctx, { resource: 'hotspot', operation: 'getAll', returnAll: true }),
			onSecondPage(() => (all[10].deleted = false)), // ... and restored while it runs
		]);
		expect(result.error).toBeUndefined();
		const ids = idsOf(result.json);
		expect(repeatedIn(ids)).toEqual([]);
		expect(ids).toHaveLength(HOTSPOTS);
		// Page 1 as first read, then the restored hotspot, found when the list was read again, then the rest.
		const allIds = all.map((h) => h.id);
		expect(ids).toEqual([...allIds.slice(0, 10), ...allIds.slice(11, 1001), allIds[10], ...allIds.slice(1001)]);
		expect(hotspotQueries()).toEqual(offsets(0, 999, 0, 999, 1998));
	});

	test('a hotspot of page 1 deleted and one added at the end before page 2, the count the same: read again, none missing', async () => {
		const before = live();
		const added: Hotspot = {
			...before[0],
			id: 'f'.repeat(24),
			name: 'Added meanwhile',
			date: '2099-01-01T00:00:00.000Z',
		};
		const [result] = await Promise.all([
			runAction(ctx, { resource: 'hotspot', operation: 'getAll', returnAll: true }),
			onSecondPage(() => {
				before[10].deleted = true;
				ctx.sb.data.hotspots.push(added);
			}),
		]);
		expect(result.error).toBeUndefined();
		const ids = idsOf(result.json);
		expect(repeatedIn(ids)).toEqual([]);
		// Still 2,500, but every hotspot after the deleted one moved up a place: page 2 (from offset 999, page 1's last)
		// began with the next hotspot instead, so the list was read again. Counting alone, hotspot 1,000 was missed.
		expect(ids).toEqual([...before.map((h) => h.id), added.id]);
		expect(hotspotQueries()).toEqual(offsets(0, 999, 0, 999, 1998));
	});

	test('an unchanging list costs no extra request', async () => {
		const result = await runAction(ctx, { resource: 'hotspot', operation: 'getAll', returnAll: true });
		expect(idsOf(result.json)).toEqual(live().map((h) => h.id));
		expect(hotspotQueries()).toEqual(offsets(0, 999, 1998));
	});

	test('a list that changes on every reading: after 3 readings again, a clear error, nothing handed on', async () => {
		// Page 1 says 1,500 hotspots, page 2 says 1,501: every time the node reads the list, it has changed under it.
		const hotspots = (from: number, count: number) =>
			Array.from({ length: count }, (_, i) => ({ id: `h${from + i}`, name: `Hotspot ${from + i}` }));
		for (let reading = 0; reading < 4; reading++) {
			const body = { status: 'ok', count: 1_500, hotspots: hotspots(0, OFFSET_PAGE) };
			ctx.sb.addFault({ method: 'GET', path: HOTSPOT_PATH, status: 200, body });
			ctx.sb.addFault({
				method: 'GET',
				path: HOTSPOT_PATH,
				status: 200,
				body: { status: 'ok', count: 1_501, hotspots: hotspots(OFFSET_PAGE, 501) },
			});
		}
		const result = await runAction(ctx, { resource: 'hotspot', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe('The list changed in Cloud4Wi while it was being read');
		const error = lastThrownError() as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.description).toBe(
			'Its count went from 1500 to 1501 between two pages, and reading it again from the start 3 times did not get a list that held still, so the listing was stopped rather than miss or repeat a record. Try again later, or narrow the list with the filters.',
		);
		expect(result.json).toEqual([]);
		expect(hotspotQueries()).toEqual(offsets(0, 999, 0, 999, 0, 999, 0, 999));
	});
});

describe('scroll lists whose pages overlap', () => {
	const event = (n: number) => ({
		customerId: 'c1',
		event: { type: 'signup', id: `e${n}l` },
		when: { createdAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString() },
	});
	const events = (from: number, count: number) => Array.from({ length: count }, (_, i) => event(from + i));
	const eventPage = (records: IDataObject[]) => ({
		status: 'ok',
		count: records.length,
		scrollId: 'scroll-1',
		events: records,
	});
	const EVENTS_PATH = '/events$';

	test('Event Get Many, Return All: events a page sends again are left out, the new ones kept', async () => {
		// Each page starts 10 events before the end of the previous one.
		const pages = [events(0, SCROLL_PAGE), events(9_990, SCROLL_PAGE), events(19_980, 520)];
		for (const records of pages) {
			ctx.sb.addFault({ method: 'GET', path: EVENTS_PATH, status: 200, body: eventPage(records) });
		}
		const result = await runAction(ctx, { resource: 'event', operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		const ids = result.json.map((e) => String((e.event as IDataObject).id));
		expect(repeatedIn(ids)).toEqual([]);
		expect(ids).toEqual(events(0, 20_500).map((e) => e.event.id));
		expect(apiRequests(`/v1/organizations/${org}/events`).map((r) => r.query)).toEqual([
			{ enableScroll: 'true', size: '10000' },
			{ enableScroll: 'true', scrollId: 'scroll-1', size: '10000' },
			{ enableScroll: 'true', scrollId: 'scroll-1', size: '10000' },
		]);
	});

	test('WiFi Connection Get Many, Return All: records without an id, sent again, are told by their content', async () => {
		// Page 2 repeats the last 100 of page 1, page 3 the last 100 of page 2.
		const pages = [connections(0, SCROLL_PAGE), connections(9_900, SCROLL_PAGE), connections(19_800, 300)];
		for (const records of pages) {
			const body = { sId: 'scroll-2', count: records.length, connections: records };
			ctx.sb.addFault({ method: 'GET', path: '/accountings$', status: 200, body });
		}
		const result = await runAction(ctx, { resource: 'wifiConnection', operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual(connections(0, 20_100));
		expect(apiRequests(`/v2/organizations/${org}/accountings`).map((r) => r.query)).toEqual([
			{ size: '10000' },
			{ size: '10000', sid: 'scroll-2' },
			{ size: '10000', sid: 'scroll-2' },
		]);
	});

	test('WiFi Connection Get Many: two connections alike in every field within one page both come out; a later page repeating them does not', async () => {
		// Page 1 ends with the same session reported twice; page 2 repeats page 1's last 3 rows (the pair included).
		const first = [...connections(0, SCROLL_PAGE - 1), connection(SCROLL_PAGE - 2)];
		const second = [...first.slice(-3), ...connections(SCROLL_PAGE - 1, 50)];
		for (const records of [first, second]) {
			const body = { sId: 'scroll-3', count: records.length, connections: records };
			ctx.sb.addFault({ method: 'GET', path: '/accountings$', status: 200, body });
		}
		const result = await runAction(ctx, { resource: 'wifiConnection', operation: 'getAll', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([...first, ...connections(SCROLL_PAGE - 1, 50)]);
		expect(result.json).toHaveLength(SCROLL_PAGE + 50);
		expect(apiRequests(`/v2/organizations/${org}/accountings`)).toHaveLength(2);
	});

	test('a full page of events all sent before, in another order: the listing stops, nothing is repeated', async () => {
		const first = events(0, SCROLL_PAGE);
		ctx.sb.addFault({ method: 'GET', path: EVENTS_PATH, status: 200, body: eventPage(first) });
		ctx.sb.addFault({ method: 'GET', path: EVENTS_PATH, status: 200, body: eventPage([...first].reverse()) });
		const result = await runAction(ctx, { resource: 'event', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe('Cloud4Wi sent records it had already sent');
		expect((lastThrownError() as NodeApiError).description).toBe(
			'Page 2 held only records of earlier pages, so the listing was stopped and nothing is repeated. Cloud4Wi may be ignoring the scroll ID or offset: try again later.',
		);
		expect(result.json).toEqual([]);
		expect(apiRequests(`/v1/organizations/${org}/events`)).toHaveLength(2);
	});
});
