/** Scroll ids: each name the service gives them, asked for on every page, sent back as one query value. */
import type { IDataObject } from 'n8n-workflow';

import { runAction } from '../harness/cloud4wi';
import { ORG, standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

/**
 * Vendor notes, Scrolling: "Scroll ids (`sid` / `sId`, `scrollId`) page through large result sets." A stand-in that
 * answers the contact list with the name it takes (`sid`) instead of the spec's `sId` is read to the end; one that
 * gives no scroll id while `totalCount` says more remain stops the listing with an error, not short without a word.
 */
describe("the scroll id's name", () => {
	const TOTAL = 25_000;
	const contacts: IDataObject[] = Array.from({ length: TOTAL }, (_, i) => ({ cid: `c${i}`, firstName: `N${i}` }));

	let si: StandIn;
	afterEach(async () => await si.close());

	test('Contact > Get Many, Return All, follows a scroll id named `sid` in the answer', async () => {
		const scrolls = new Map<string, number>();
		si = await standIn((r) => {
			if (r.path !== `/v2/customers/organizations/${ORG}`) return undefined;
			const size = Number(r.query.size ?? 100);
			const id = r.query.sid ?? `s${scrolls.size + 1}`;
			const position = scrolls.get(id) ?? 0;
			const page = contacts.slice(position, position + size);
			scrolls.set(id, position + page.length);
			return {
				body: { generated: new Date().toISOString(), totalCount: TOTAL, count: page.length, sid: id, customers: page },
			};
		});
		const result = await runAction(si, {
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
			filters: {},
			simplify: false,
		});
		expect(result.json.length).toBe(TOTAL);
	});
});

/**
 * Spec, GET /v1/organizations/{cid}/events: "enableScroll | boolean | when true the response contains a scrollId".
 * A stand-in that follows this literally gives a scroll id only to requests that ask with enableScroll=true, so the
 * node asks with it on every page (it used to ask on the first only, and stopped after 20,000 of 25,000 events).
 */
describe('a scroll id only when asked for', () => {
	const TOTAL = 25_000;
	const events = Array.from({ length: TOTAL }, (_, i) => ({
		organizationId: ORG,
		customerId: `c${i % 50}`,
		event: { type: 'signup', id: `e${i}l`, signup: { source: 'wifi' } },
		where: { locationId: 'loc-1', locationName: 'Milano' },
		when: { createdAt: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(), createdAtLocal: '', timezone: 'UTC' },
	}));

	let si: StandIn;
	afterEach(async () => await si.close());

	function literalScrolls() {
		const scrolls = new Map<string, number>();
		let n = 0;
		return (r: { path: string; query: Record<string, string> }) => {
			if (r.path !== `/v1/organizations/${ORG}/events`) return undefined;
			const size = Number(r.query.size ?? 100);
			let id = r.query.scrollId;
			let position = 0;
			if (id) position = scrolls.get(id) ?? 0;
			else if (r.query.enableScroll === 'true') scrolls.set((id = `scroll-${++n}`), 0);
			const page = events.slice(position, position + size);
			if (id) scrolls.set(id, position + page.length);
			const body: IDataObject = { status: 'ok', generated: new Date().toISOString(), count: page.length, events: page };
			if (r.query.enableScroll === 'true') body.scrollId = id; // "when true the response contains a scrollId"
			return { body };
		};
	}

	test('Event > Get Many, Return All, reads every page from a stand-in that gives scrollId only when enableScroll=true', async () => {
		si = await standIn(literalScrolls());
		const result = await runAction(si, {
			resource: 'event',
			operation: 'getAll',
			returnAll: true,
			filters: {},
		});
		const calls = si.requests.filter((r) => r.path.endsWith('/events'));
		expect(result.error).toBeUndefined();
		expect(result.json.length).toBe(TOTAL);
		expect(calls.map((r) => [r.query.enableScroll, r.query.scrollId])).toEqual([
			['true', undefined],
			['true', 'scroll-1'],
			['true', 'scroll-1'],
		]);
	});

	test('Trigger (Start From a date) emits every event of a 25,000-event backlog from the same literal stand-in', async () => {
		si = await standIn(literalScrolls());
		const { buildWorkflow, pollOnce } = await import('../harness/engine');
		const { triggerWorkflow } = await import('../harness/cloud4wi');
		const workflow = buildWorkflow(
			triggerWorkflow({ events: [], options: { startFrom: 'date', startDate: '2024-12-31T00:00:00Z' } }),
		);
		const first = await pollOnce(workflow, si.store, 'Trigger');
		const second = await pollOnce(workflow, si.store, 'Trigger');
		const emitted = (first.emitted?.length ?? 0) + (second.emitted?.length ?? 0);
		expect(emitted).toBe(TOTAL);
	}, 120_000);
});

describe('a hostile scroll id', () => {
	let si: StandIn;
	afterEach(async () => await si.close());
	const HOSTILE = 'x&organizationId=other&size=1#/../../v1/sts/logout?\r\nX-Evil: 1 %2F..%2F';

	test('a hostile scroll id goes back as one query value on the same path', async () => {
		si = await standIn((r) => {
			if (r.path !== `/v2/customers/organizations/${ORG}`) return undefined;
			if (!r.query.sId && !r.query.sid)
				return { body: { totalCount: 2, count: 1, sId: HOSTILE, customers: [{ cid: 'c1' }] } };
			return { body: { totalCount: 2, count: 1, sId: HOSTILE, customers: [{ cid: 'c2' }] } };
		});
		await runAction(si, {
			resource: 'contact',
			operation: 'getAll',
			returnAll: true,
			filters: {},
			simplify: false,
		});
		const api = si.requests.filter((r) => !r.path.startsWith('/v1/sts/login'));
		expect(api.every((r) => r.path === `/v2/customers/organizations/${ORG}`)).toBe(true);
		expect(
			api.slice(1).every((r) => (r.query.sid ?? r.query.sId) === HOSTILE && r.query.organizationId === undefined),
		).toBe(true);
		expect(api.every((r) => r.headers['x-evil'] === undefined)).toBe(true);
	});
});

/** Variations of a spec-conforming stand-in that the node already handled, kept so that they stay handled. */
test('schema-form events (type/id at top level), numbers as strings, scroll id that never changes, empty last page', async () => {
	const events = Array.from({ length: 7 }, (_, i) => ({ type: i % 2 ? 'arriving' : 'signup', id: `e${i}l` }));
	let served = 0;
	const si = await standIn((r) => {
		if (r.path !== `/v1/organizations/${ORG}/events`) return undefined;
		const size = Number(r.query.size);
		const page = events.slice(served, served + size);
		served += page.length;
		return { body: { status: 'ok', generated: 'x', count: String(page.length), events: page, scrollId: 'same' } };
	});
	const result = await runAction(si, {
		resource: 'event',
		operation: 'getAll',
		returnAll: false,
		limit: 3,
		filters: { events: ['arriving'] },
		simplify: true,
	});
	expect(result.error).toBeUndefined();
	expect(result.json.map((e) => [e.id, e.type])).toEqual([
		['e1l', 'arriving'],
		['e3l', 'arriving'],
		['e5l', 'arriving'],
	]);
	await si.close();
});
