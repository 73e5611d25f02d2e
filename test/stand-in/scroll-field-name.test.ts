/**
 * Vendor notes, Scrolling: "Scroll ids (`sid` / `sId`, `scrollId`) page through large result sets." A stand-in that
 * answers the contact list with the name it takes (`sid`) instead of the spec's `sId` is read to the end; one that
 * gives no scroll id while `totalCount` says more remain stops the listing with an error, not short without a word.
 */
import type { IDataObject } from 'n8n-workflow';

import { runAction } from '../harness/cloud4wi';
import { ORG, standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

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
