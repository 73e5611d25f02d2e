/**
 * Event operations (getAll, getAllForContact), run through the engine against the sandbox. Every test checks what the
 * sandbox received and what the node returned.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { InjectedEvent, LiveEvent, LoggedRequest } from '../../sandbox';
import type { TestContext } from '../../harness/cloud4wi';
import { actionWorkflow, apiCalls, expectInputError, runAction, startCloud4Wi } from '../../harness/cloud4wi';
import { buildWorkflow, lastThrownError, runWorkflow } from '../../harness/engine';
import { kindFilter } from '../../../nodes/Cloud4Wi/shared/events';

/**
 * Event (getAll, getAllForContact) and WiFi connection (getAll) operations, run through the engine against
 * the sandbox. Every test checks what the sandbox received and what the node returned.
 */
const EVENTS = 25_000;
const CONNECTIONS = 25_000;
/** Injected events live in this window, far from the seeded last 30 days, so a date filter isolates them. */
const DAY = '2021-03-01';
const at = (minute: number) => new Date(Date.parse(`${DAY}T10:00:00Z`) + minute * 60_000).toISOString();

let ctx: TestContext;
let org: string;
/** Injected events by kind (in time order), and the contacts they belong to. */
let injected: LiveEvent[];
let alice: string;
let bob: string;

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const idOf = (e: IDataObject | LiveEvent) => String((e.event as IDataObject).id);
const ofKinds = (events: LiveEvent[], kinds: string[]) => events.filter((e) => kinds.includes(e.event.type));
const byUtc = (a: LiveEvent, b: LiveEvent) =>
	a.when.createdAt.localeCompare(b.when.createdAt) || idOf(a).localeCompare(idOf(b));
const apiRequests = (): LoggedRequest[] => ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login'));
const eventsPath = () => `/v1/organizations/${org}/events`;

beforeAll(async () => {
	ctx = await startCloud4Wi({ events: EVENTS, connections: CONNECTIONS });
	org = ctx.sb.organizationId;
	alice = ctx.sb.data.contacts[0]!.cid;
	bob = ctx.sb.data.contacts[1]!.cid;
	const location = ctx.sb.data.locations.find((l) => ctx.sb.data.hotspots.some((h) => h.venueId === l.id))!;
	const kinds = [
		'signup',
		'visit',
		'login',
		'promo',
		'arriving',
		'geo_visit',
		'geo_arriving',
		'send_email',
		'click_sms',
		'survey',
	];
	const specs: InjectedEvent[] = [];
	kinds.forEach((type, i) => {
		specs.push({ type, customerId: alice, createdAt: at(i * 2), locationId: location.id } as InjectedEvent);
		specs.push({ type, customerId: bob, createdAt: at(i * 2 + 1), locationId: location.id } as InjectedEvent);
	});
	injected = json(ctx.sb.injectEvents(specs));
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in once, up front
});

afterAll(async () => await ctx.sb.close());

beforeEach(() => {
	ctx.sb.clearRequests();
	ctx.sb.clearFaults();
});

describe('event: Get Many (organization)', () => {
	const window = { dateStart: `${DAY}T00:00:00Z`, dateEnd: `${DAY}T23:59:59+01:00` };

	test('kinds the server can filter go as events=a,b, dates as UTC instants, with the sort asked for', async () => {
		const {
			error,
			json: out,
			items,
		} = await runAction(ctx, {
			resource: 'event',
			operation: 'getAll',
			returnAll: true,
			filters: { events: ['signup', 'visit'], ...window, sortBy: 'utcTime', sortReverse: true },
		});
		expect(error).toBeUndefined();
		expect(apiRequests().map(({ method, path, query }) => ({ method, path, query }))).toEqual([
			{
				method: 'GET',
				path: eventsPath(),
				query: {
					enableScroll: 'true',
					size: '10000',
					events: 'signup,visit',
					dateStart: '2021-03-01T00:00:00.000Z',
					dateEnd: '2021-03-01T22:59:59.000Z',
					sortBy: 'utcTime',
					sortReverse: 'true',
				},
			},
		]);
		expect(out).toEqual(ofKinds(injected, ['signup', 'visit']).sort(byUtc).reverse());
		expect(items.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	test('a kind the server cannot filter: no events parameter, filtered here, and no other kind leaks through', async () => {
		const { error, json: out } = await runAction(ctx, {
			resource: 'event',
			operation: 'getAll',
			returnAll: true,
			filters: { events: ['signup', 'arriving', 'geo_visit'], ...window, sortBy: 'utcTime', sortReverse: false },
		});
		expect(error).toBeUndefined();
		const requests = apiRequests();
		expect(requests).toHaveLength(1);
		expect(requests[0].query).toEqual({
			enableScroll: 'true',
			size: '10000',
			dateStart: '2021-03-01T00:00:00.000Z',
			dateEnd: '2021-03-01T22:59:59.000Z',
			sortBy: 'utcTime',
			sortReverse: 'false',
		});
		expect(out).toEqual(ofKinds(injected, ['signup', 'arriving', 'geo_visit']).sort(byUtc));
		expect(out.map((e) => (e.event as IDataObject).type)).toEqual([
			'signup',
			'signup',
			'arriving',
			'arriving',
			'geo_visit',
			'geo_visit',
		]);
	});

	test('non-filterable kinds over every page of the whole stream: three scroll pages, only those kinds, each once', async () => {
		const kinds = ['geo_visit', 'geo_arriving'];
		const { error, json: out } = await runAction(ctx, {
			resource: 'event',
			operation: 'getAll',
			returnAll: true,
			filters: { events: kinds },
		});
		expect(error).toBeUndefined();
		const pages = apiRequests();
		expect(pages.map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill(`GET ${eventsPath()}`));
		expect(pages[0].query).toEqual({ enableScroll: 'true', size: '10000' });
		const scrollId = pages[1].query.scrollId;
		expect(scrollId).toEqual(expect.any(String));
		expect(pages[1].query).toEqual({ enableScroll: 'true', scrollId, size: '10000' });
		expect(pages[2].query).toEqual({ enableScroll: 'true', scrollId, size: '10000' });
		const expected = ofKinds(ctx.sb.data.events, kinds);
		expect(expected.length).toBeGreaterThan(100);
		expect(new Set(out.map((e) => (e.event as IDataObject).type))).toEqual(new Set(kinds));
		expect(out.map(idOf).sort()).toEqual(expected.map(idOf).sort());
	});

	test('Return All reads the whole stream in three scroll pages of the same size', async () => {
		const { error, json: out } = await runAction(ctx, { resource: 'event', operation: 'getAll', returnAll: true });
		expect(error).toBeUndefined();
		const pages = apiRequests();
		expect(pages).toHaveLength(3);
		expect(pages.every((r) => r.method === 'GET' && r.path === eventsPath() && r.status === 200)).toBe(true);
		expect(pages[0].query).toEqual({ enableScroll: 'true', size: '10000' });
		expect(pages[1].query).toEqual({ enableScroll: 'true', scrollId: expect.any(String), size: '10000' });
		expect(pages[2].query).toEqual({ enableScroll: 'true', scrollId: pages[1].query.scrollId, size: '10000' });
		expect(out).toHaveLength(EVENTS + injected.length);
		expect(new Set(out.map(idOf))).toEqual(new Set(ctx.sb.data.events.map(idOf)));
	});

	test('Limit stops early: 10,000 events in one page though more exist, and one page of exactly the limit when the server filters', async () => {
		const many = await runAction(ctx, { resource: 'event', operation: 'getAll', returnAll: false, limit: 10_000 });
		expect(many.error).toBeUndefined();
		expect(many.json).toHaveLength(10_000);
		expect(new Set(many.json.map(idOf)).size).toBe(10_000);
		expect(apiRequests().map((r) => r.query)).toEqual([{ enableScroll: 'true', size: '10000' }]);

		ctx.sb.clearRequests();
		const few = await runAction(ctx, {
			resource: 'event',
			operation: 'getAll',
			limit: 3,
			filters: { events: ['login'], ...window, sortBy: 'utcTime', sortReverse: false },
		});
		expect(few.error).toBeUndefined();
		expect(apiRequests().map((r) => r.query)).toEqual([
			{
				enableScroll: 'true',
				size: '3',
				events: 'login',
				dateStart: '2021-03-01T00:00:00.000Z',
				dateEnd: '2021-03-01T22:59:59.000Z',
				sortBy: 'utcTime',
				sortReverse: 'false',
			},
		]);
		expect(few.json).toEqual(ofKinds(injected, ['login']).sort(byUtc));
	});

	test('Limit with kinds the server cannot filter reads full pages until enough events match, then stops', async () => {
		const kinds = ['geo_visit', 'geo_arriving'];
		const stream = [...ctx.sb.data.events].sort(byUtc);
		const onFirstPage = ofKinds(stream.slice(0, 10_000), kinds).length;
		const limit = onFirstPage + 5; // the second page is needed, the third is not
		const { error, json: out } = await runAction(ctx, {
			resource: 'event',
			operation: 'getAll',
			limit,
			filters: { events: kinds, sortBy: 'utcTime', sortReverse: false },
		});
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => r.query)).toEqual([
			{ enableScroll: 'true', size: '10000', sortBy: 'utcTime', sortReverse: 'false' },
			{ enableScroll: 'true', scrollId: expect.any(String), size: '10000', sortBy: 'utcTime', sortReverse: 'false' },
		]);
		expect(out.map(idOf)).toEqual(ofKinds(stream, kinds).slice(0, limit).map(idOf));
	});

	test('Limit with a kind the server cannot filter stops after the first page that has enough', async () => {
		const { error, json: out } = await runAction(ctx, {
			resource: 'event',
			operation: 'getAll',
			limit: 5,
			filters: { events: ['arriving'] },
		});
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => r.query)).toEqual([{ enableScroll: 'true', size: '10000' }]);
		expect(out).toHaveLength(5);
		expect(out.every((e) => (e.event as IDataObject).type === 'arriving')).toBe(true);
	});

	/** Runs the node in a workflow whose time zone is Rome's (UTC+1 in March). */
	const inRome = (parameters: INodeParameters) =>
		runWorkflow(buildWorkflow({ ...actionWorkflow(parameters), settings: { timezone: 'Europe/Rome' } }), ctx.store);

	test('a date without an offset is read in the workflow time zone and sent as a UTC instant', async () => {
		const run = await inRome({
			resource: 'event',
			operation: 'getAll',
			returnAll: true,
			filters: { events: ['visit'], dateStart: `${DAY}T11:00:00`, dateEnd: `${DAY}T11:01:59`, sortBy: 'utcTime' },
		});
		expect(run.error).toBeUndefined();
		expect(apiRequests()[0].query).toMatchObject({
			dateStart: '2021-03-01T10:00:00.000Z',
			dateEnd: '2021-03-01T10:01:59.000Z',
		});
		// Visits were injected at 10:02 and 10:03 UTC, just outside the window.
		expect(run.output('Cloud4Wi')).toEqual([]);
	});

	test.each([
		['event', 'getAll'],
		['wifiConnection', 'getAll'],
	])('%s %s: a date alone in To takes in that whole day, in the workflow time zone', async (resource, operation) => {
		ctx.sb.clearRequests();
		// "On March 1": one day, not an empty window at midnight.
		const run = await inRome({ resource, operation, limit: 1, filters: { dateStart: DAY, dateEnd: DAY } });
		expect(run.error).toBeUndefined();
		expect(apiRequests()[0].query).toMatchObject({
			dateStart: '2021-02-28T23:00:00.000Z',
			dateEnd: '2021-03-01T22:59:59.999Z',
		});
	});

	test('Simplify returns one flat record per event, for WiFi, signup, campaign and geo events', async () => {
		const { error, json: out } = await runAction(ctx, {
			resource: 'event',
			operation: 'getAll',
			returnAll: true,
			simplify: true,
			filters: {
				events: ['visit', 'signup', 'send_email', 'geo_visit'],
				...window,
				sortBy: 'utcTime',
				sortReverse: false,
			},
		});
		expect(error).toBeUndefined();
		const flat = (e: LiveEvent): IDataObject => ({
			id: e.event.id,
			type: e.event.type,
			contactId: e.customerId,
			organizationId: e.organizationId ?? null,
			createdAt: e.when.createdAt,
			createdAtLocal: e.when.createdAtLocal,
			timezone: e.when.timezone,
			locationId: e.where.locationId ?? null,
			locationName: e.where.locationName ?? null,
			hotspotId: e.where.hotspotId ?? null,
			geofenceName: e.where.geofenceName ?? null,
			visitDuration: e.event.visit?.duration ?? null,
			signupSource: e.event.signup?.source ?? null,
			campaignName: e.event.email?.campaignName ?? null,
		});
		const expected = ofKinds(injected, ['visit', 'signup', 'send_email', 'geo_visit']).sort(byUtc);
		expect(out).toEqual(expected.map(flat));
		const geo = out.find((e) => e.type === 'geo_visit')!;
		expect(geo).toMatchObject({
			organizationId: null,
			locationId: null,
			geofenceName: expect.stringMatching(/geofence$/),
		});
		expect(out.find((e) => e.type === 'signup')!.signupSource).toEqual(expect.any(String));
		expect(out.find((e) => e.type === 'send_email')!.campaignName).toEqual(expect.any(String));
	});
});

describe('event: Get Many for Contact', () => {
	const window = { dateStart: `${DAY}T00:00:00.000Z`, dateEnd: `${DAY}T23:59:59.999Z` };

	test('one sized request for the contact, filtered on the server, with an explicit organization', async () => {
		const { error, json: out } = await runAction(ctx, {
			resource: 'event',
			operation: 'getAllForContact',
			organizationId: org,
			contactId: alice,
			limit: 10,
			filters: { events: ['login', 'signup'], ...window, sortBy: 'utcTime', sortReverse: false },
		});
		expect(error).toBeUndefined();
		expect(apiRequests().map(({ method, path, query }) => ({ method, path, query }))).toEqual([
			{
				method: 'GET',
				path: `/v1/organizations/${org}/customers/${alice}/events`,
				query: {
					size: '10',
					events: 'login,signup',
					dateStart: '2021-03-01T00:00:00.000Z',
					dateEnd: '2021-03-01T23:59:59.999Z',
					sortBy: 'utcTime',
					sortReverse: 'false',
				},
			},
		]);
		expect(out).toEqual(
			ofKinds(injected, ['signup', 'login'])
				.filter((e) => e.customerId === alice)
				.sort(byUtc),
		);
	});

	test('non-filterable kinds: the largest page, no events parameter, only those kinds of that contact', async () => {
		const { error, json: out } = await runAction(ctx, {
			resource: 'event',
			operation: 'getAllForContact',
			contactId: bob,
			returnAll: true,
			filters: { events: ['geo_arriving', 'visit'], ...window, sortBy: 'utcTime', sortReverse: true },
		});
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => r.query)).toEqual([
			{
				size: '10000',
				dateStart: '2021-03-01T00:00:00.000Z',
				dateEnd: '2021-03-01T23:59:59.999Z',
				sortBy: 'utcTime',
				sortReverse: 'true',
			},
		]);
		expect(out).toEqual(
			ofKinds(injected, ['visit', 'geo_arriving'])
				.filter((e) => e.customerId === bob)
				.sort(byUtc)
				.reverse(),
		);
	});

	test('Limit with a non-filterable kind keeps only the first matching events', async () => {
		const { error, json: out } = await runAction(ctx, {
			resource: 'event',
			operation: 'getAllForContact',
			contactId: alice,
			limit: 1,
			simplify: true,
			filters: { events: ['arriving', 'promo'], ...window, sortBy: 'utcTime', sortReverse: false },
		});
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => r.query.size)).toEqual(['10000']);
		const promo = injected.find((e) => e.customerId === alice && e.event.type === 'promo')!;
		expect(out).toEqual([expect.objectContaining({ id: promo.event.id, type: 'promo', contactId: alice })]);
	});

	test('an unknown contact is a NodeApiError with the service message, the status and a hint naming it', async () => {
		const result = await runAction(ctx, {
			resource: 'event',
			operation: 'getAllForContact',
			contactId: 'no-such-contact',
			limit: 5,
		});
		const error = lastThrownError() as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Contact not found: no-such-contact');
		expect(error.httpCode).toBe('404');
		expect(error.description).toBe(`Cloud4Wi has no contact "no-such-contact" in organization "${org}". Check the ID.`);
		expect(result.error?.message).toBe('Contact not found: no-such-contact');
		expect(apiCalls(ctx.sb)).toEqual([`GET /v1/organizations/${org}/customers/no-such-contact/events`]);
	});
});
describe('input checks: the item fails with a NodeOperationError naming the field, and nothing is sent', () => {
	const events = { resource: 'event', operation: 'getAll' };
	const forContact = { resource: 'event', operation: 'getAllForContact', contactId: 'c-1', limit: 5 };
	test.each<[string, INodeParameters, string]>([
		['limit 0', { ...events, limit: 0 }, 'Limit'],
		['limit 10001', { ...events, limit: 10_001 }, 'Limit'],
		['malformed From', { ...events, filters: { dateStart: 'yesterday' } }, 'Filters > From'],
		['impossible To', { ...events, filters: { dateEnd: '2021-02-30' } }, 'Filters > To'],
		[
			'From after To',
			{ ...events, filters: { dateStart: '2021-03-02T00:00:00Z', dateEnd: '2021-03-01T00:00:00Z' } },
			'Filters > From',
		],
		['contact id with /', { ...forContact, contactId: 'abc/def' }, 'Contact ID'],
		['contact id with ?', { ...forContact, contactId: 'abc?x=1' }, 'Contact ID'],
		['contact id with #', { ...forContact, contactId: 'abc#1' }, 'Contact ID'],
		['empty contact id', { ...forContact, contactId: '  ' }, 'Contact ID'],
		['organization id with /', { ...forContact, organizationId: 'org/../other' }, 'Organization ID'],
		[
			'contact From after To',
			{ ...forContact, filters: { dateStart: '2021-03-02', dateEnd: '2021-03-01' } },
			'Filters > From',
		],
	])('%s', async (_name, parameters, field) => {
		expectInputError(ctx, await runAction(ctx, parameters), field);
	});
});

describe('service errors, retries, token renewal and items', () => {
	test('a token that expires in the middle of a Return All of events is renewed once and the scroll goes on', async () => {
		const loginsBefore = ctx.sb.logins;
		ctx.sb.addFault({ method: 'GET', path: '/events$', expireTokens: true, skip: 1 });
		const { error, json: out } = await runAction(ctx, { resource: 'event', operation: 'getAll', returnAll: true });
		expect(error).toBeUndefined();
		expect(ctx.sb.logins).toBe(loginsBefore + 1);
		expect(ctx.sb.requests.filter((r) => r.path === '/v1/sts/login/services')).toHaveLength(1);
		const pages = apiRequests();
		expect(pages.map((r) => r.status)).toEqual([200, 403, 200, 200]);
		expect(pages[0].query).toEqual({ enableScroll: 'true', size: '10000' });
		const scrollId = pages[1].query.scrollId;
		expect(pages.slice(1).map((r) => r.query)).toEqual(
			Array(3).fill({ enableScroll: 'true', scrollId, size: '10000' }),
		);
		expect(pages[2].authorization).not.toBe(pages[1].authorization);
		expect(out).toHaveLength(EVENTS + injected.length);
		expect(new Set(out.map(idOf)).size).toBe(EVENTS + injected.length);
	});

	test('continue on fail: each item gets its own results or its error, paired with the item', async () => {
		const { error, items } = await runAction(
			ctx,
			{
				resource: 'event',
				operation: 'getAllForContact',
				contactId: '={{ $json.cid }}',
				returnAll: true,
				filters: {
					events: ['signup', 'click_sms'],
					dateStart: `${DAY}T00:00:00Z`,
					dateEnd: `${DAY}T23:59:59Z`,
					sortBy: 'utcTime',
					sortReverse: false,
				},
			},
			[{ cid: alice }, { cid: 'ghost' }, { cid: 'bad/id' }, { cid: bob }],
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		const mine = (cid: string) =>
			ofKinds(injected, ['signup', 'click_sms'])
				.filter((e) => e.customerId === cid)
				.sort(byUtc);
		expect(items.map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
			{ item: 3 },
		]);
		expect(items.map((i) => i.json)).toEqual([
			...mine(alice),
			{
				error: 'Contact not found: ghost',
				description: `Cloud4Wi has no contact "ghost" in organization "${org}". Check the ID.`,
				httpCode: '404',
			},
			{ error: 'Contact ID: "bad/id" contains "/", "\\", "?" or "#", which no Cloud4Wi ID has' },
			...mine(bob),
		]);
		// The item with a bad id never reached the service.
		expect(apiCalls(ctx.sb)).toEqual([
			`GET /v1/organizations/${org}/customers/${alice}/events`,
			`GET /v1/organizations/${org}/customers/ghost/events`,
			`GET /v1/organizations/${org}/customers/${bob}/events`,
		]);
	});
});

/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
describe('kindFilter', () => {
	test('filterable kinds go to the server and are checked here too', () => {
		const filter = kindFilter(['signup', 'visit']);
		expect(filter.query).toBe('signup,visit');
		expect(filter.keep({ event: { type: 'visit' } })).toBe(true);
		expect(filter.keep({ event: { type: 'login' } })).toBe(false);
		expect(filter.keep({ type: 'signup' })).toBe(true);
	});

	test('a kind the server cannot filter sends no filter, and filters here', () => {
		const filter = kindFilter(['signup', 'geo_visit']);
		expect(filter.query).toBeUndefined();
		expect(filter.keep({ event: { type: 'geo_visit' } })).toBe(true);
		expect(filter.keep({ event: { type: 'visit' } })).toBe(false);
	});

	test('no kinds means all', () => {
		expect(kindFilter([]).query).toBeUndefined();
		expect(kindFilter([]).keep({ event: { type: 'arriving' } })).toBe(true);
	});
});
