import type { IDataObject } from 'n8n-workflow';

import { node, ACTION_TYPE, runAction } from '../harness/cloud4wi';
import { loadOptionsOf } from '../harness/engine';
import { ORG, standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

const TOTAL = 250;
const hotspots: IDataObject[] = Array.from({ length: TOTAL }, (_, i) => ({
	id: `h${String(i).padStart(4, '0')}`,
	name: `AP ${i}`,
	hotspotIdentifier: `ap-${i}`,
	venueId: 'loc-1',
	deleted: false,
}));

let si: StandIn;
afterEach(async () => await si.close());

const capped = () =>
	standIn((r) => {
		if (r.path !== `/v3/hotspots/organizations/${ORG}`) return undefined;
		const limit = Math.min(Number(r.query.limit ?? 20), 100); // the stand-in's own page cap
		const offset = Number(r.query.offset ?? 0);
		const page = hotspots.slice(offset, offset + limit);
		return { body: { status: 'ok', generated: new Date().toISOString(), count: TOTAL, hotspots: page } };
	});

test('Hotspot > Get Many, Return All, gets all 250 hotspots', async () => {
	si = await capped();
	const result = await runAction(si, {
		resource: 'hotspot',
		operation: 'getAll',
		returnAll: true,
		filters: {},
	});
	const offsets = si.requests.filter((r) => r.path.startsWith('/v3/')).map((r) => r.query.offset);
	expect(result.json.length).toBe(TOTAL);
	// Each page from the last hotspot of the one before; 51 at 198 make the 250 the count said: no request for an empty page.
	expect(offsets).toEqual(['0', '99', '198']);
});

test('the Hotspot dropdown lists all 250 hotspots', async () => {
	si = await capped();
	const options = (await loadOptionsOf(
		si.store,
		node('Cloud4Wi', ACTION_TYPE, { resource: 'wifiConnection', operation: 'getAll' }),
		'getHotspots',
	)) as unknown[];
	expect(options.length).toBe(TOTAL);
});
