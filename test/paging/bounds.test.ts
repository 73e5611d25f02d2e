/** A listing that would not end: bounded in records, requests and time, with an error saying what to do. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeApiError } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { ACTION_TYPE, credentialFor, node, runAction } from '../harness/cloud4wi';
import { lastThrownError, loadOptionsOf, scaleTimeLimits } from '../harness/engine';
import { ORG, standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

/**
 * A service that keeps answering full pages of *new* records (no page repeats, no total to exceed), or that never answers:
 * the dropdowns stop at 10,000 records or after 60 s, and a listing at 2,000,000 records, each with an error that says
 * what to do, instead of loading without end while memory grows. Real sockets against a tiny local stand-in for Cloud4Wi
 * that makes up a new page for every request (up to a ceiling past each bound, so that a listing without one ends too).
 */
describe('new records on every page', () => {
	/** The bounds under test (nodes/Cloud4Wi/shared/methods.ts and paginate.ts), written out. */
	const DROPDOWN_RECORDS = 10_000;
	const DROPDOWN_SECONDS = 60;
	const LISTING_RECORDS = 2_000_000;
	/** Pages the stand-in makes up before it sends an empty one: past each bound, so a listing without one ends too. */
	const HOTSPOT_PAGES = 15;
	const EVENT_PAGES = 210;

	let server: http.Server;
	let hang = false;
	const queries: Array<{ path: string; query: Record<string, string> }> = [];
	let ctx: TestContext;

	beforeAll(async () => {
		server = http.createServer((req, res) => {
			const url = new URL(req.url ?? '/', 'http://x');
			const send = (body: unknown) => {
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end(JSON.stringify(body));
			};
			if (url.pathname === '/v1/sts/login/services') return send({ token: 'jwt-1' });
			queries.push({ path: url.pathname, query: Object.fromEntries(url.searchParams) });
			const page = queries.filter((q) => q.path === url.pathname).length;
			if (url.pathname.startsWith('/v3/hotspots/organizations/')) {
				if (hang) return; // never answers: the test's end closes the socket
				const offset = Number(url.searchParams.get('offset'));
				const limit = page > HOTSPOT_PAGES ? 0 : Number(url.searchParams.get('limit'));
				const hotspots = Array.from({ length: limit }, (_, i) => ({ id: `h${offset + i}`, name: `H ${offset + i}` }));
				return send({ status: 'ok', count: hotspots.length, hotspots });
			}
			if (url.pathname.endsWith('/events')) {
				const size = page > EVENT_PAGES ? 0 : Number(url.searchParams.get('size'));
				const events = Array.from({ length: size }, (_, i) => ({
					customerId: 'c1',
					event: { type: 'signup', id: `e${page}-${i}l` },
					when: { createdAt: '2026-01-01T00:00:00.000Z' },
				}));
				return send({ status: 'ok', count: size, scrollId: `s${page}`, events });
			}
			res.writeHead(404).end('{}');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		const store = credentialFor({ url, credentials: { clientKey: 'k', clientSecret: 's', organizationId: 'org-1' } });
		ctx = { sb: undefined as never, store };
	});
	afterAll(async () => {
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});
	beforeEach(() => {
		queries.length = 0;
		hang = false;
	});

	const hotspotField = () => node('Cloud4Wi', ACTION_TYPE, { resource: 'hotspot', operation: 'get' });
	const TOO_MANY = {
		message: 'More than 10,000 hotspots, too many to list: type the hotspot ID instead',
		description:
			'The list stops at 10,000 hotspots, more than anyone can pick from. Type the hotspot ID instead: choose ID in place of From List, or, where there is no such choice, switch the field to Expression.',
	};

	describe('dropdowns', () => {
		test(`the hotspot list stops after ${DROPDOWN_RECORDS} hotspots with an error saying to type the ID`, async () => {
			await expect(loadOptionsOf(ctx.store, hotspotField(), 'getHotspots')).rejects.toMatchObject(TOO_MANY);
			// Pages of 1,000, each from the last hotspot of the one before, until one more than the cap is known: 11 requests.
			expect(queries.map((q) => q.query)).toEqual(
				Array.from({ length: DROPDOWN_RECORDS / 1000 + 1 }, (_, i) => ({ limit: '1000', offset: String(i * 999) })),
			);
		});

		test('the searchable hotspot list (From List) stops the same way', async () => {
			await expect(loadOptionsOf(ctx.store, hotspotField(), 'searchHotspots', 'H 1')).rejects.toMatchObject(TOO_MANY);
			expect(queries).toHaveLength(DROPDOWN_RECORDS / 1000 + 1);
		});

		test(`a hotspot list that never comes ends after ${DROPDOWN_SECONDS} s with an error saying to type the ID`, async () => {
			hang = true;
			scaleTimeLimits(1 / 20); // the dropdown's minute is 3 s, a try's 30 s is 1.5 s
			const started = Date.now();
			const load = loadOptionsOf(ctx.store, hotspotField(), 'getHotspots');
			await expect(load).rejects.toBeInstanceOf(NodeApiError);
			await expect(load).rejects.toMatchObject({
				message: 'The hotspot list did not load within 3 s: type the hotspot ID instead',
				description:
					'Cloud4Wi did not send the list in time. Type the hotspot ID instead: choose ID in place of From List, or, where there is no such choice, switch the field to Expression. Or try again later.',
			});
			const elapsed = Date.now() - started;
			scaleTimeLimits(1);
			expect(elapsed).toBeGreaterThanOrEqual((DROPDOWN_SECONDS * 1000) / 20 - 50);
			expect(elapsed).toBeLessThan((DROPDOWN_SECONDS * 1000) / 20 + 1500);
			// A try of 30 s (the default Timeout), and a second one cut short at the deadline.
			expect(queries.map((q) => q.query)).toEqual([
				{ limit: '1000', offset: '0' },
				{ limit: '1000', offset: '0' },
			]);
		}, 30_000);
	});

	describe('Return All', () => {
		test(`Event Get Many stops at ${LISTING_RECORDS} events with an error naming the bound`, async () => {
			const started = Date.now();
			const result = await runAction(ctx, { resource: 'event', operation: 'getAll', returnAll: true });
			expect(result.error?.message).toBe('Cloud4Wi sent more than 2,000,000 records for one list');
			const error = lastThrownError() as NodeApiError;
			expect(error).toBeInstanceOf(NodeApiError);
			expect(error.description).toBe(
				"The listing was stopped after 201 pages so that it cannot run on without end and fill n8n's memory. Narrow the list with the filters (a date range, say), or turn off Return All and set a Limit.",
			);
			expect(result.json).toEqual([]);
			// 200 pages of 10,000 are the bound; the 201st is not handed on.
			const calls = queries.filter((q) => q.path === '/v1/organizations/org-1/events');
			expect(calls).toHaveLength(LISTING_RECORDS / 10_000 + 1);
			expect(calls[0].query).toEqual({ enableScroll: 'true', size: '10000' });
			expect(calls[200].query).toEqual({ enableScroll: 'true', scrollId: 's200', size: '10000' });
			expect(Date.now() - started).toBeLessThan(60_000);
		}, 120_000);
	});
});

/**
 * A listing was bounded by records (2,000,000) and pages that repeat, but not by
 * requests. A service
 * that answers each page of 10,000 asked with ONE new record, a fresh scroll id and a large totalCount keeps Return All
 * asking: up to 2,000,000 requests in one node run (~1.3 ms each here: ~45 min of requests; the same bound at 10,000 a
 * page is 201 requests). A listing is now bounded in requests too (20,000: its most records at 100 a page), and one whose
 * pages and announced total would need more stops at once (a stand-in capping pages at 100 of 250 hotspots,
 * test/paging/limit-and-offset.test.ts, still works).
 */
describe('pages of one record', () => {
	const PAGES = 2000;
	let si: StandIn;
	afterEach(async () => await si.close());

	test('pages of one record each, 1e9 announced: the listing stops early with an error, not after thousands of requests', async () => {
		let page = 0;
		si = await standIn((r) => {
			if (r.path !== `/v1/organizations/${ORG}/events`) return undefined;
			page++;
			const events =
				page > PAGES
					? []
					: [
							{
								customerId: 'c1',
								event: { type: 'signup', id: `e${page}l` },
								when: { createdAt: '2026-01-01T00:00:00.000Z' },
							},
						];
			return { body: { status: 'ok', totalCount: 1_000_000_000, count: events.length, scrollId: `s${page}`, events } };
		});
		const result = await runAction(si, {
			resource: 'event',
			operation: 'getAll',
			returnAll: true,
		});
		expect(result.error?.message).toBe(
			'Cloud4Wi sends pages of 1 record and announces 1000000000: the listing would take more than 20,000 requests',
		);
		expect(si.requests.filter((r) => r.path.endsWith('/events'))).toHaveLength(1);
		expect(page).toBeLessThan(PAGES);
	}, 600_000);
});
