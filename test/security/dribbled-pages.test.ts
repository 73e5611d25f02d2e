/**
 * Found by the fifth audit (a slow hang): a listing was bounded by records (2,000,000) and pages that repeat, but not by
 * requests. A service
 * that answers each page of 10,000 asked with ONE new record, a fresh scroll id and a large totalCount keeps Return All
 * asking: up to 2,000,000 requests in one node run (~1.3 ms each here: ~45 min of requests; the same bound at 10,000 a
 * page is 201 requests). A listing is now bounded in requests too (20,000: its most records at 100 a page), and one whose
 * pages and announced total would need more stops at once (a stand-in capping pages at 100 of 250 hotspots,
 * test/stand-in/hotspot-limit, still works).
 */
import { runAction } from '../harness/cloud4wi';
import { ORG, standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

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
