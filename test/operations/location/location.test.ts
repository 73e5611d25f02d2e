/**
 * Location operations (create, get, update, delete, getAll), run through the engine against the sandbox. Every test
 * checks what the sandbox received and what the node returned.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { Location, LoggedRequest } from '../../sandbox';
import {
	apiCalls,
	expectInputError,
	runAction,
	LOCATION_REQUIRED,
	expectApiError,
	sandboxPerFile,
	shown,
} from '../../harness/cloud4wi';

const HOTSPOTS = 2_500;

const ctx = sandboxPerFile({ hotspots: HOTSPOTS });
let org: string;

const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const apiRequests = (): LoggedRequest[] => ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login'));
const sent = () => apiRequests().map(({ method, path, query, body }) => ({ method, path, query, body }));

const LOCATION_FIELDS = [
	'id',
	'name',
	'organziationId',
	'lat',
	'lng',
	'timezone',
	'address',
	'externalId',
	'tags',
] as const;
const publicLocation = (l: Location) => shown(l, LOCATION_FIELDS);

beforeAll(async () => {
	org = ctx.sb.organizationId;
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in once, up front
});

describe('location', () => {
	const required = LOCATION_REQUIRED;
	const create = { resource: 'location', operation: 'create', ...required };

	test('Create sends every required field and the additional ones; the answer keeps newTags', async () => {
		const knownTags = new Set(ctx.sb.data.locations.flatMap((l) => l.tags));
		const oldTag = [...knownTags][0];
		const { error, json } = await runAction(ctx, {
			...create,
			additionalFields: {
				categoryName: 'clothing',
				tags: [oldTag, ' pop-up ', 'tourist'],
				externalId: 'LOC-900',
				description: 'Flagship next to the cathedral',
				onNet: true,
				enabled: false,
				organizationPlanId: 'plan-42',
			},
		});
		expect(error).toBeUndefined();
		expect(sent()).toEqual([
			{
				method: 'POST',
				path: `/v1/organizations/${org}/locations`,
				query: {},
				body: {
					...required,
					country: 'IT',
					categoryName: 'clothing',
					tags: [oldTag, 'pop-up', 'tourist'],
					externalId: 'LOC-900',
					description: 'Flagship next to the cathedral',
					onNet: true,
					enabled: false,
					organizationPlanId: 'plan-42',
				},
			},
		]);
		const created = ctx.sb.data.locations.at(-1)!;
		expect(json).toEqual([
			{ generated: expect.any(String), status: 'ok', locationId: created.id, newTags: ['pop-up', 'tourist'] },
		]);
		expect(created).toMatchObject({
			name: required.name,
			categoryName: 'clothing',
			welcomePortalId: 'wp-default',
			onNet: true,
			enabled: false,
		});
	});

	test('Get (resource locator and plain string) returns the location record', async () => {
		const target = ctx.sb.data.locations[2];
		const viaLocator = await runAction(ctx, { resource: 'location', operation: 'get', locationId: rl(target.id) });
		const viaString = await runAction(ctx, { resource: 'location', operation: 'get', locationId: target.id });
		expect(sent()).toEqual(
			Array(2).fill({ method: 'GET', path: `/v1/locations/${target.id}`, query: {}, body: undefined }),
		);
		expect(viaLocator.json).toEqual([publicLocation(target)]);
		expect(viaString.json).toEqual([publicLocation(target)]);
	});

	test('Update sends only the given fields, the address ones trimmed', async () => {
		const target = ctx.sb.data.locations[3];
		const before = { ...target, address: { ...target.address } };
		const { error, json } = await runAction(ctx, {
			resource: 'location',
			operation: 'update',
			organizationId: org,
			locationId: rl(target.id),
			// Padded, as mapped data often is: Cloud4Wi would store the spaces.
			updateFields: { name: 'Renamed Venue', tags: 'retail, late-night', timezone: 'Europe/Paris', city: '  Paris ' },
		});
		expect(error).toBeUndefined();
		expect(sent()).toEqual([
			{
				method: 'PUT',
				path: `/v1/organizations/${org}/locations/${target.id}`,
				query: {},
				body: { name: 'Renamed Venue', tags: ['retail', 'late-night'], timezone: 'Europe/Paris', city: 'Paris' },
			},
		]);
		expect(json).toEqual([
			{ generated: expect.any(String), status: 'ok', locationId: target.id, newTags: ['late-night'] },
		]);
		expect(target).toMatchObject({
			name: 'Renamed Venue',
			timezone: 'Europe/Paris',
			address: { ...before.address, city: 'Paris' },
			externalId: before.externalId,
			categoryName: before.categoryName,
		});
	});

	test('Get Many with a tags filter, all and limited', async () => {
		const tags = ['airport', 'food'];
		const expected = ctx.sb.data.locations.filter((l) => l.tags.some((t) => tags.includes(t))).map(publicLocation);
		expect(expected.length).toBeGreaterThan(1);
		const all = await runAction(ctx, { resource: 'location', operation: 'getAll', returnAll: true, filters: { tags } });
		const one = await runAction(ctx, { resource: 'location', operation: 'getAll', limit: 1, filters: { tags } });
		expect(sent()).toEqual(
			Array(2).fill({
				method: 'GET',
				path: `/v1/organizations/${org}/locations`,
				query: { tags: 'airport,food' },
				body: undefined,
			}),
		);
		expect(all.json).toEqual(expected);
		expect(one.json).toEqual(expected.slice(0, 1));

		ctx.sb.clearRequests();
		const everything = await runAction(ctx, { resource: 'location', operation: 'getAll', returnAll: true });
		expect(sent()).toEqual([{ method: 'GET', path: `/v1/organizations/${org}/locations`, query: {}, body: undefined }]);
		expect(everything.json).toEqual(ctx.sb.data.locations.map(publicLocation));
	});

	test('Delete says which location was deleted; reading it afterwards is a 404 with a hint naming it', async () => {
		const target = ctx.sb.data.locations.at(-1)!;
		const { error, json } = await runAction(ctx, {
			resource: 'location',
			operation: 'delete',
			locationId: rl(target.id),
		});
		expect(error).toBeUndefined();
		expect(sent()).toEqual([
			{ method: 'DELETE', path: `/v1/organizations/${org}/locations/${target.id}`, query: {}, body: undefined },
		]);
		expect(json).toEqual([{ locationId: target.id, deleted: true, status: 'ok' }]);
		expect(ctx.sb.data.locations.some((l) => l.id === target.id)).toBe(false);

		ctx.sb.clearRequests();
		const again = await runAction(ctx, { resource: 'location', operation: 'get', locationId: target.id });
		expect(again.error?.message).toBe(`Location not found: ${target.id}`);
		expectApiError('404', `Location not found: ${target.id}`, `Cloud4Wi has no location "${target.id}". Check the ID.`);
		expect(apiCalls(ctx.sb)).toEqual([`GET /v1/locations/${target.id}`]);
	});
});

describe('input checks: the item fails with a NodeOperationError naming the field, and nothing is sent', () => {
	const createLocation = {
		resource: 'location',
		operation: 'create',
		name: 'Venue',
		timezone: 'Europe/Rome',
		country: 'IT',
		address: 'Via Roma 1',
		city: 'Milano',
		state: 'MI',
		zip: '20121',
		loginProfileId: 'lp',
		locationProfileId: 'lpr',
		welcomePortalId: 'wp',
	};
	test.each<[string, INodeParameters, string]>([
		['empty location id (mapped)', { resource: 'location', operation: 'get', locationId: '={{ "" }}' }, 'Location'],
		['location id with ?', { resource: 'location', operation: 'delete', locationId: rl('loc?1') }, 'Location'],
		['limit 10001', { resource: 'location', operation: 'getAll', limit: 10_001 }, 'Limit'],
		[
			'location create without welcome portal (mapped)',
			{ ...createLocation, welcomePortalId: '={{ "" }}' },
			'Welcome Portal ID',
		],
		['location create with a blank name', { ...createLocation, name: '   ' }, 'Name'],
		['location country XX', { ...createLocation, country: 'XX' }, 'Country Code'],
		['location country ITA', { ...createLocation, country: 'ITA' }, 'Country Code'],
		['location time zone CET', { ...createLocation, timezone: 'CET' }, 'Time Zone'],
		['location time zone Mars/Base', { ...createLocation, timezone: 'Mars/Base' }, 'Time Zone'],
		[
			'unknown category (expression)',
			{ ...createLocation, additionalFields: { categoryName: '={{ "space" + "port" }}' } },
			'Category',
		],
		[
			'update country ITA',
			{ resource: 'location', operation: 'update', locationId: 'l1', updateFields: { country: 'ITA' } },
			'Update Fields > Country Code',
		],
		[
			'update time zone CET',
			{ resource: 'location', operation: 'update', locationId: 'l1', updateFields: { timezone: 'CET' } },
			'Update Fields > Time Zone',
		],
		[
			'update category (expression)',
			{
				resource: 'location',
				operation: 'update',
				locationId: 'l1',
				updateFields: { categoryName: '={{ "casino" }}' },
			},
			'Update Fields > Category',
		],
		[
			'organization id with #',
			{ resource: 'location', operation: 'getAll', organizationId: 'org#1', returnAll: true },
			'Organization ID',
		],
	])('%s', async (_name, parameters, field) => {
		expectInputError(ctx, await runAction(ctx, parameters), field);
	});
});

describe('service errors, retries and items', () => {
	test('404 for an unknown location on update names the location and the organization', async () => {
		await runAction(ctx, {
			resource: 'location',
			operation: 'update',
			locationId: 'no-such-location',
			updateFields: { name: 'x' },
		});
		expectApiError(
			'404',
			'Location not found: no-such-location',
			`Cloud4Wi has no location "no-such-location" in organization "${org}". Check the ID.`,
		);
		expect(sent()).toEqual([
			{ method: 'PUT', path: `/v1/organizations/${org}/locations/no-such-location`, query: {}, body: { name: 'x' } },
		]);
	});

	test('409 from the service is a NodeApiError with its message, not retried', async () => {
		const message = 'Invalid parameter welcomePortalId: no such welcome portal';
		ctx.sb.addFault({ method: 'POST', path: '/locations$', status: 409, body: { message } });
		const result = await runAction(ctx, {
			resource: 'location',
			operation: 'create',
			name: 'Venue',
			timezone: 'Europe/Rome',
			country: 'IT',
			address: 'Via Roma 1',
			city: 'Milano',
			state: 'MI',
			zip: '20121',
			loginProfileId: 'lp',
			locationProfileId: 'lpr',
			welcomePortalId: 'wp-missing',
		});
		expect(result.error?.message).toBe(message);
		expectApiError(
			'409',
			message,
			'Cloud4Wi refused a parameter of this request (conflict or invalid value). The message names it.',
		);
		expect(apiRequests().map((r) => [r.method, r.path, r.status])).toEqual([
			['POST', `/v1/organizations/${org}/locations`, 409],
		]);
	});

	test('continue on fail with a list per item: every record is paired with the item that asked for it', async () => {
		const { error, items } = await runAction(
			ctx,
			{ resource: 'location', operation: 'getAll', returnAll: true, filters: { tags: '={{ $json.tags }}' } },
			[{ tags: 'airport' }, { tags: 'food' }],
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		const tagged = (tag: string) => ctx.sb.data.locations.filter((l) => l.tags.includes(tag)).map(publicLocation);
		expect(items.map((i) => i.json)).toEqual([...tagged('airport'), ...tagged('food')]);
		expect(items.map((i) => i.pairedItem)).toEqual([
			...tagged('airport').map(() => ({ item: 0 })),
			...tagged('food').map(() => ({ item: 1 })),
		]);
		expect(apiRequests().map((r) => r.query)).toEqual([{ tags: 'airport' }, { tags: 'food' }]);
	});
});
