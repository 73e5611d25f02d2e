/**
 * Hotspot operations (create, get, getByIdentifier, update, delete, getAll), run through the engine against the sandbox.
 * Every test checks what the sandbox received and what the node returned.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Hotspot, LoggedRequest } from '../../sandbox';
import { apiCalls, expectInputError, runAction, expectApiError, sandboxPerFile, shown } from '../../harness/cloud4wi';
import { atScale } from '../../harness/engine';

const HOTSPOTS = 2_500;
/** Hotspot pages: the sandbox refuses a `limit` above 1,000. */
const HOTSPOT_PAGE = 1_000;

const ctx = sandboxPerFile({ hotspots: HOTSPOTS });
let org: string;

const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const apiRequests = (): LoggedRequest[] => ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login'));
const sent = () => apiRequests().map(({ method, path, query, body }) => ({ method, path, query, body }));

const HOTSPOT_FIELDS = [
	'id',
	'name',
	'description',
	'firmware',
	'vendor',
	'hotspotIdentifier',
	'date',
	'macAddress',
	'venueId',
	'country',
	'city',
	'address',
	'latitude',
	'longitude',
	'deleted',
] as const;
const publicHotspot = (h: Hotspot) => shown(h, HOTSPOT_FIELDS);
const liveHotspots = () =>
	ctx.sb.data.hotspots
		.filter((h) => !h.deleted)
		.sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
const hotspot = (index: number) => liveHotspots()[index];

beforeAll(async () => {
	org = ctx.sb.organizationId;
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in once, up front
});

describe('hotspot', () => {
	const createBase = {
		resource: 'hotspot',
		operation: 'create',
		name: 'Lobby AP',
		routerType: 'meraki',
		latitude: 45.4642,
		longitude: 9.19,
	};

	test('Create with the location address: ids under both spellings, required fields, normalized MAC', async () => {
		const location = ctx.sb.data.locations[0];
		const { error, json } = await runAction(ctx, {
			...createBase,
			locationId: rl(location.id),
			macAddress: 'aa-bb-cc-dd-ee-0f',
			additionalFields: { description: 'Ground floor', ssid: 'Guest', hotspotIdentifier: 'lobby-ap-1' },
		});
		expect(error).toBeUndefined();
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: '/v3/hotspots',
				query: {},
				body: {
					organizationId: org,
					organziationId: org,
					venueId: location.id,
					locationId: location.id,
					name: 'Lobby AP',
					routerType: 'meraki',
					latitude: 45.4642,
					longitude: 9.19,
					addressAsLocation: true,
					macAddress: 'AA:BB:CC:DD:EE:0F',
					description: 'Ground floor',
					ssid: 'Guest',
					hotspotIdentifier: 'lobby-ap-1',
				},
			},
		]);
		const created = ctx.sb.data.hotspots.at(-1)!;
		expect(json).toEqual([
			{ generated: expect.any(String), status: 'ok', locationId: location.id, hotspotId: created.id },
		]);
		expect(created).toMatchObject({
			name: 'Lobby AP',
			venueId: location.id,
			city: location.address.city,
			macAddress: 'AA:BB:CC:DD:EE:0F',
		});
	});

	test('Create with its own address: country, address, city, state and ZIP are sent; plain-string ids work', async () => {
		const location = ctx.sb.data.locations[1];
		const { error, json } = await runAction(ctx, {
			...createBase,
			organizationId: org,
			locationId: location.id,
			addressAsLocation: false,
			country: 'it',
			address: 'Via Roma 1',
			city: 'Milano',
			state: 'MI',
			zip: '20121',
		});
		expect(error).toBeUndefined();
		expect(sent()[0].body).toEqual({
			organizationId: org,
			organziationId: org,
			venueId: location.id,
			locationId: location.id,
			name: 'Lobby AP',
			routerType: 'meraki',
			latitude: 45.4642,
			longitude: 9.19,
			addressAsLocation: false,
			country: 'IT',
			address: 'Via Roma 1',
			city: 'Milano',
			state: 'MI',
			zip: '20121',
		});
		expect(apiCalls(ctx.sb)).toEqual(['POST /v3/hotspots']);
		const created = ctx.sb.data.hotspots.at(-1)!;
		expect(json).toEqual([
			{ generated: expect.any(String), status: 'ok', locationId: location.id, hotspotId: created.id },
		]);
		expect(created).toMatchObject({
			country: 'IT',
			address: 'Via Roma 1',
			city: 'Milano',
			state: 'MI',
			zip: '20121',
			macAddress: null,
		});
	});

	test('Get by ID (resource locator and plain string) returns the hotspot record', async () => {
		const target = hotspot(3);
		const viaLocator = await runAction(ctx, { resource: 'hotspot', operation: 'get', hotspotId: rl(target.id) });
		const viaString = await runAction(ctx, { resource: 'hotspot', operation: 'get', hotspotId: target.id });
		expect(viaLocator.json).toEqual([publicHotspot(target)]);
		expect(viaString.json).toEqual([publicHotspot(target)]);
		expect(sent()).toEqual(
			Array(2).fill({ method: 'GET', path: `/v3/hotspots/${target.id}`, query: {}, body: undefined }),
		);
	});

	test('Get by Identifier returns the hotspot with that dashboard identifier', async () => {
		const target = hotspot(7);
		const { error, json } = await runAction(ctx, {
			resource: 'hotspot',
			operation: 'getByIdentifier',
			hotspotIdentifier: target.hotspotIdentifier,
		});
		expect(error).toBeUndefined();
		expect(sent()).toEqual([
			{ method: 'GET', path: `/v3/hotspots/identifier/${target.hotspotIdentifier}`, query: {}, body: undefined },
		]);
		expect(json).toEqual([publicHotspot(target)]);
	});

	test('Update with a location sends only the given fields, never the create-only ones', async () => {
		const target = hotspot(10);
		const location = ctx.sb.data.locations.find((l) => l.id !== target.venueId)!;
		const { error, json } = await runAction(ctx, {
			resource: 'hotspot',
			operation: 'update',
			hotspotId: rl(target.id),
			locationId: rl(location.id),
			updateFields: {
				name: 'Renamed AP',
				enabled: false,
				latitude: -33.86,
				addressAsLocation: false,
				country: 'AU',
				address: 'George Street 1',
				city: 'Sydney',
				state: 'NSW',
				zip: '2000',
			},
		});
		expect(error).toBeUndefined();
		expect(sent()).toEqual([
			{
				method: 'PUT',
				path: `/v3/hotspots/${target.id}`,
				query: {},
				body: {
					organizationId: org,
					organziationId: org,
					locationId: location.id,
					name: 'Renamed AP',
					enabled: false,
					latitude: -33.86,
					addressAsLocation: false,
					country: 'AU',
					address: 'George Street 1',
					city: 'Sydney',
					state: 'NSW',
					zip: '2000',
				},
			},
		]);
		const body = sent()[0].body as IDataObject;
		for (const field of ['venueId', 'routerType', 'macAddress', 'hotspotIdentifier', 'ssid'])
			expect(body).not.toHaveProperty(field);
		expect(json).toEqual([
			{ generated: expect.any(String), status: 'ok', locationId: location.id, hotspotId: target.id },
		]);
		expect(target).toMatchObject({
			name: 'Renamed AP',
			enabled: false,
			venueId: location.id,
			city: 'Sydney',
			latitude: -33.86,
		});
	});

	test('Update without a location first reads the hotspot to keep its location', async () => {
		const target = hotspot(11);
		const venueId = target.venueId;
		const { error, json } = await runAction(ctx, {
			resource: 'hotspot',
			operation: 'update',
			hotspotId: target.id,
			// Fields the update form does not offer (as a pasted workflow might carry) are never sent.
			updateFields: {
				description: 'Moved to the bar',
				longitude: 12.5,
				venueId: 'elsewhere',
				routerType: 'aruba',
				macAddress: '00:11:22:33:44:55',
				ssid: 'x',
			},
		});
		expect(error).toBeUndefined();
		expect(sent()).toEqual([
			{ method: 'GET', path: `/v3/hotspots/${target.id}`, query: {}, body: undefined },
			{
				method: 'PUT',
				path: `/v3/hotspots/${target.id}`,
				query: {},
				body: {
					organizationId: org,
					organziationId: org,
					locationId: venueId,
					description: 'Moved to the bar',
					longitude: 12.5,
				},
			},
		]);
		expect(json).toEqual([{ generated: expect.any(String), status: 'ok', locationId: venueId, hotspotId: target.id }]);
		expect(target).toMatchObject({ description: 'Moved to the bar', longitude: 12.5, venueId });
	});

	test('Update of an unknown hotspot without a location fails on the read with a hint naming it', async () => {
		await runAction(ctx, {
			resource: 'hotspot',
			operation: 'update',
			hotspotId: 'ffffffffffffffffffffffff',
			updateFields: { name: 'x' },
		});
		expectApiError(
			'404',
			'Hotspot not found: ffffffffffffffffffffffff',
			'Cloud4Wi has no hotspot "ffffffffffffffffffffffff". Check the ID.',
		);
		expect(apiCalls(ctx.sb)).toEqual(['GET /v3/hotspots/ffffffffffffffffffffffff']);
	});

	test('Delete says which hotspot was deleted', async () => {
		const target = hotspot(20);
		const { error, json } = await runAction(ctx, {
			resource: 'hotspot',
			operation: 'delete',
			hotspotId: rl(target.id),
		});
		expect(error).toBeUndefined();
		expect(sent()).toEqual([{ method: 'DELETE', path: `/v3/hotspots/${target.id}`, query: {}, body: undefined }]);
		expect(json).toEqual([{ hotspotId: target.id, deleted: true, status: 'ok' }]);
		expect(target.deleted).toBe(true);
	});

	test('Get Many, Return All: limit/offset pages until the hotspots run out', async () => {
		const { error, json } = await runAction(ctx, { resource: 'hotspot', operation: 'getAll', returnAll: true });
		expect(error).toBeUndefined();
		const expected = liveHotspots();
		expect(expected.length).toBeGreaterThan(2 * HOTSPOT_PAGE);
		// Each page after the first starts at the last hotspot of the one before, to see that nothing shifted meanwhile.
		const offsets = [0];
		for (let read = HOTSPOT_PAGE; read < expected.length; read += HOTSPOT_PAGE - 1) offsets.push(read - 1);
		expect(offsets.length).toBeGreaterThanOrEqual(3);
		expect(sent()).toEqual(
			offsets.map((offset) => ({
				method: 'GET',
				path: `/v3/hotspots/organizations/${org}`,
				query: { limit: String(HOTSPOT_PAGE), offset: String(offset) },
				body: undefined,
			})),
		);
		expect(json).toEqual(expected.map(publicHotspot));
	});

	test('Get Many, Limit: stops as soon as it has enough', async () => {
		const some = await runAction(ctx, { resource: 'hotspot', operation: 'getAll', limit: 1_500 });
		expect(some.error).toBeUndefined();
		expect(apiRequests().map((r) => r.query)).toEqual([
			{ limit: '1000', offset: '0' },
			{ limit: '1000', offset: '999' }, // from page 1's last hotspot: 999 more
		]);
		expect(some.json).toEqual(liveHotspots().slice(0, 1_500).map(publicHotspot));

		ctx.sb.clearRequests();
		const few = await runAction(ctx, { resource: 'hotspot', operation: 'getAll', limit: 5 });
		expect(apiRequests().map((r) => r.query)).toEqual([{ limit: '5', offset: '0' }]);
		expect(few.json).toEqual(liveHotspots().slice(0, 5).map(publicHotspot));
	});

	test('Get Many filters: creation dates, name, MAC, identifier, location, deleted', async () => {
		const target = hotspot(30);
		const day = target.date.slice(0, 10);
		const { error, json } = await runAction(ctx, {
			resource: 'hotspot',
			operation: 'getAll',
			returnAll: true,
			filters: {
				creationDateStart: day,
				creationDateStop: day,
				name: target.name,
				macAddress: target.macAddress,
				hotspotIdentifier: target.hotspotIdentifier,
				venueId: target.venueId,
				deleted: false,
			},
		});
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => r.query)).toEqual([
			{
				creationDateStart: day,
				creationDateStop: day,
				name: target.name,
				macAddress: target.macAddress!,
				hotspotIdentifier: target.hotspotIdentifier,
				venueId: target.venueId,
				deleted: 'false',
				limit: '1000',
				offset: '0',
			},
		]);
		expect(json).toEqual([publicHotspot(target)]);

		ctx.sb.clearRequests();
		const deleted = await runAction(ctx, {
			resource: 'hotspot',
			operation: 'getAll',
			returnAll: true,
			filters: { deleted: true },
		});
		expect(apiRequests().map((r) => r.query)).toEqual([{ deleted: 'true', limit: '1000', offset: '0' }]);
		const expected = ctx.sb.data.hotspots.filter((h) => h.deleted);
		expect(expected).toHaveLength(1);
		expect(deleted.json).toEqual(expected.map(publicHotspot));
	});
});
describe('input checks: the item fails with a NodeOperationError naming the field, and nothing is sent', () => {
	const createHotspot = {
		resource: 'hotspot',
		operation: 'create',
		name: 'AP',
		routerType: 'meraki',
		locationId: 'loc-1',
		latitude: 1,
		longitude: 2,
	};
	const ownAddress = {
		addressAsLocation: false,
		country: 'IT',
		address: 'Via Roma 1',
		city: 'Milano',
		state: 'MI',
		zip: '20121',
	};
	test.each<[string, INodeParameters, string]>([
		['hotspot id with /', { resource: 'hotspot', operation: 'get', hotspotId: 'abc/def' }, 'Hotspot'],
		['hotspot id with ? (locator)', { resource: 'hotspot', operation: 'delete', hotspotId: rl('abc?x=1') }, 'Hotspot'],
		[
			'hotspot id with #',
			{ resource: 'hotspot', operation: 'update', hotspotId: 'abc#1', updateFields: { name: 'x' } },
			'Hotspot',
		],
		[
			'empty hotspot id (mapped)',
			{ resource: 'hotspot', operation: 'get', hotspotId: rl('={{ $json.nothing ?? "" }}') },
			'Hotspot',
		],
		[
			'identifier with /',
			{ resource: 'hotspot', operation: 'getByIdentifier', hotspotIdentifier: 'meraki/01' },
			'Hotspot Identifier',
		],
		[
			'update location id with /',
			{ resource: 'hotspot', operation: 'update', hotspotId: 'h1', locationId: 'a/b', updateFields: { name: 'x' } },
			'Location',
		],
		['limit 0', { resource: 'hotspot', operation: 'getAll', limit: 0 }, 'Limit'],
		[
			'created after not YYYY-MM-DD',
			{ resource: 'hotspot', operation: 'getAll', filters: { creationDateStart: '2024/01/01' } },
			'Filters > Created After',
		],
		[
			'created before impossible',
			{ resource: 'hotspot', operation: 'getAll', filters: { creationDateStop: '2024-02-30' } },
			'Filters > Created Before',
		],
		[
			'created after after before',
			{
				resource: 'hotspot',
				operation: 'getAll',
				filters: { creationDateStart: '2024-03-01', creationDateStop: '2024-02-01' },
			},
			'Filters > Created After',
		],
		[
			'hotspot location filter with /',
			{ resource: 'hotspot', operation: 'getAll', filters: { venueId: 'a/b' } },
			'Filters > Location',
		],
		['hotspot create without router type (mapped)', { ...createHotspot, routerType: '={{ "" }}' }, 'Router Type'],
		['hotspot create without name', { ...createHotspot, name: ' ' }, 'Name'],
		['hotspot create without location (mapped)', { ...createHotspot, locationId: rl('={{ "" }}') }, 'Location'],
		['latitude 91', { ...createHotspot, latitude: 91 }, 'Latitude'],
		['longitude -181', { ...createHotspot, longitude: -181 }, 'Longitude'],
		[
			'update latitude -91',
			{ resource: 'hotspot', operation: 'update', hotspotId: 'h1', updateFields: { latitude: -91 } },
			'Update Fields > Latitude',
		],
		['bad MAC address', { ...createHotspot, macAddress: 'AA:BB:CC:DD:EE' }, 'MAC Address'],
		['MAC address with letters beyond F', { ...createHotspot, macAddress: 'AA:BB:CC:DD:EE:GG' }, 'MAC Address'],
		['own address without city (mapped)', { ...createHotspot, ...ownAddress, city: '={{ "" }}' }, 'City'],
		['own address without ZIP (mapped)', { ...createHotspot, ...ownAddress, zip: '={{ "" }}' }, 'ZIP Code'],
		['own address without country (mapped)', { ...createHotspot, ...ownAddress, country: '={{ "" }}' }, 'Country Code'],
		['hotspot country XX', { ...createHotspot, ...ownAddress, country: 'XX' }, 'Country Code'],
		['hotspot country ITA', { ...createHotspot, ...ownAddress, country: 'ITA' }, 'Country Code'],
		[
			'update without own address fields',
			{
				resource: 'hotspot',
				operation: 'update',
				hotspotId: 'h1',
				updateFields: { addressAsLocation: false, country: 'IT' },
			},
			'Update Fields > Address',
		],
	])('%s', async (_name, parameters, field) => {
		expectInputError(ctx, await runAction(ctx, parameters), field);
	});
});

describe('service errors, retries and items', () => {
	test('404 for an unknown hotspot: the service message, the status and a hint naming the id', async () => {
		const result = await runAction(ctx, { resource: 'hotspot', operation: 'get', hotspotId: 'no-such-hotspot' });
		expect(result.error?.message).toBe('Hotspot not found: no-such-hotspot');
		expectApiError(
			'404',
			'Hotspot not found: no-such-hotspot',
			'Cloud4Wi has no hotspot "no-such-hotspot". Check the ID.',
		);
		expect(apiCalls(ctx.sb)).toEqual(['GET /v3/hotspots/no-such-hotspot']);
	});

	test('404 for an unknown location on hotspot create names the location', async () => {
		await runAction(ctx, {
			resource: 'hotspot',
			operation: 'create',
			name: 'AP',
			routerType: 'aruba',
			locationId: 'nowhere',
			latitude: 0,
			longitude: 0,
		});
		expectApiError('404', 'Location not found: nowhere', 'Cloud4Wi has no location "nowhere". Check the ID.');
		expect(apiCalls(ctx.sb)).toEqual(['POST /v3/hotspots']);
	});

	test('429 with Retry-After 0 on a read is retried and the read succeeds', async () => {
		const target = hotspot(40);
		ctx.sb.addFault({ method: 'GET', path: '^/v3/hotspots/', status: 429, retryAfter: 0, times: 2 });
		const { error, json } = await runAction(ctx, { resource: 'hotspot', operation: 'get', hotspotId: target.id });
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => [r.method, r.path, r.status])).toEqual([
			['GET', `/v3/hotspots/${target.id}`, 429],
			['GET', `/v3/hotspots/${target.id}`, 429],
			['GET', `/v3/hotspots/${target.id}`, 200],
		]);
		expect(json).toEqual([publicHotspot(target)]);
	});

	test.each<[string, () => INodeParameters, string, string]>([
		[
			'hotspot create',
			() => ({
				resource: 'hotspot',
				operation: 'create',
				name: 'AP',
				routerType: 'aruba',
				locationId: ctx.sb.data.locations[0].id,
				latitude: 0,
				longitude: 0,
			}),
			'POST',
			'^/v3/hotspots$',
		],
		[
			'hotspot update',
			() => ({
				resource: 'hotspot',
				operation: 'update',
				hotspotId: hotspot(50).id,
				locationId: hotspot(50).venueId,
				updateFields: { name: 'x' },
			}),
			'PUT',
			'^/v3/hotspots/',
		],
		[
			'hotspot delete',
			() => ({ resource: 'hotspot', operation: 'delete', hotspotId: hotspot(51).id }),
			'DELETE',
			'^/v3/hotspots/',
		],
		[
			'location update',
			() => ({
				resource: 'location',
				operation: 'update',
				locationId: ctx.sb.data.locations[0].id,
				updateFields: { description: 'x' },
			}),
			'PUT',
			'/locations/',
		],
		[
			'location delete',
			() => ({ resource: 'location', operation: 'delete', locationId: ctx.sb.data.locations[0].id }),
			'DELETE',
			'/locations/',
		],
	])(
		'a 5xx on a write (%s): a create is sent once, an update or delete tried 5 times as a read',
		async (_name, parameters, method, path) => {
			const before = JSON.stringify(ctx.sb.data.locations) + JSON.stringify(ctx.sb.data.hotspots);
			ctx.sb.addFault({
				method,
				path,
				status: 503,
				retryAfter: 0,
				times: 5,
				body: { message: 'Service temporarily unavailable' },
			});
			const result = await atScale(1 / 20, () => runAction(ctx, parameters())); // back-offs of 25, 50, 100, 200 ms
			expect(result.error?.message).toBe('Service temporarily unavailable');
			// A create's 5xx may come after it was applied (a gateway's 504, a 500 half way): it is not sent again.
			const hint =
				method === 'POST'
					? 'The write may or may not have been applied: check in Cloud4Wi before running it again.'
					: 'Cloud4Wi had an internal error. Try again later.';
			expectApiError('503', 'Service temporarily unavailable', hint);
			const tries = method === 'POST' ? 1 : 5;
			expect(apiRequests().map((r) => [r.method, r.status])).toEqual(
				Array.from({ length: tries }, () => [method, 503]),
			);
			expect(JSON.stringify(ctx.sb.data.locations) + JSON.stringify(ctx.sb.data.hotspots)).toBe(before);
		},
	);

	test('continue on fail: each item gets its result or its error, paired with the item; a bad id sends nothing', async () => {
		const [a, b] = [hotspot(60), hotspot(61)];
		const { error, items } = await runAction(
			ctx,
			{ resource: 'hotspot', operation: 'get', hotspotId: '={{ $json.id }}' },
			[{ id: a.id }, { id: 'missing-hotspot' }, { id: 'bad/id' }, { id: b.id }],
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(items.map((i) => i.json)).toEqual([
			publicHotspot(a),
			{
				error: 'Hotspot not found: missing-hotspot',
				description: 'Cloud4Wi has no hotspot "missing-hotspot". Check the ID.',
				httpCode: '404',
			},
			{ error: 'Hotspot: "bad/id" contains "/", "\\", "?" or "#", which no Cloud4Wi ID has' },
			publicHotspot(b),
		]);
		expect(apiCalls(ctx.sb)).toEqual([
			`GET /v3/hotspots/${a.id}`,
			'GET /v3/hotspots/missing-hotspot',
			`GET /v3/hotspots/${b.id}`,
		]);
	});
});
