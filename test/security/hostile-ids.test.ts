/**
 * No id can choose the endpoint: a catalogue of hostile ids through every operation and field that puts an id in a
 * URL path (typed, mapped from the item, as a resource locator), the credential's default organization, the
 * trigger and the dropdowns. Each fails its item with an error naming the field, and the sandbox sees nothing.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { credentialFor, node, runAction, startCloud4Wi, TRIGGER_TYPE, LOCATION_REQUIRED } from '../harness/cloud4wi';
import { buildWorkflow, lastThrownError, loadOptionsOf, pollOnce } from '../harness/engine';
import type { CredentialStore } from '../harness/engine';

/**
 * Dot segments, separators, escapes that decode to them (at any depth), controls, nothing at all; then escapes that do
 * not decode (which a lenient proxy reads anyhow), look-alikes a server normalises onto route characters, and ";".
 */
const HOSTILE = [
	'.',
	'..',
	' .. ',
	'%2e',
	'%2e%2e',
	'.%2E',
	'%2E%2e',
	'%252e%252e',
	'a/b',
	'../x',
	'..\\x',
	'a\\b',
	'a?b',
	'a?x=1',
	'a#b',
	'a%2Fb',
	'a%2fb',
	'a%252Fb',
	'a%25252Fb',
	'a%5Cb',
	'a%3Fb',
	'a%23b',
	'a\nb',
	'a\r\nb',
	'a\tb',
	'a\u0000b',
	'a%00b',
	'a%0ab',
	'a\u007fb',
	'a\u0085b',
	'a\u2028b',
	'',
	'   ',
	// A "%" that starts no escape, at any layer: the rest was never checked before.
	'a%2Fb%',
	'..%2F..%2Fsts%2Flogout%c0',
	'..%2F..%2Fv1%2Fsts%2Flogout%',
	'%2e%2e%',
	'x%252F%zz',
	'100%',
	'%zz',
	'a%25zz',
	'%%32%65%%32%65',
	// Escapes that are not UTF-8: overlong "/" and "..", an encoded lone surrogate; and a lone surrogate as typed.
	'a%c0%afb',
	'%c0%ae%c0%ae',
	'a%ed%a0%80b',
	'a\ud800b',
	// Look-alikes that NFKC maps onto "/", ".", "?", "#", "\\", or that it leaves alone but look the same.
	'a\uff0fb',
	'\uff0e\uff0e',
	'a\uff1fb',
	'a\uff03b',
	'a\uff3cb',
	'a\ufe68b',
	'\u2024\u2024',
	'\ufe52\ufe52',
	'\u2025',
	'a%EF%BC%8Fb',
	'a\uff052Fb',
	'a\u2215b',
	'a\u2044b',
	'a\u29f8b',
	'a\u2216b',
	'a\u3002b',
	// Matrix parameters, as typed, escaped and as a look-alike.
	'a;v=1',
	'a%3Bv=1',
	'a%253Bb',
	'a\uff1bv=1',
	// Commas: a server that takes several ids in one segment (a,b) would act on two records.
	'a,b',
	'a,',
	',a',
	'a%2Cb',
	'a%2cb',
	'a%252Cb',
	'a\uff0cb',
	'a%EF%BC%8Cb',
];
/** Values mapped from the item that are not one id: String() made "c-1,c-2" or "[object Object]" of them. */
const NOT_ONE_ID: unknown[] = [['c-1', 'c-2'], ['c-1'], [], [['c-1']], { cid: 'c-1' }, {}, [{ cid: 'c-1' }]];
const kindOf = (value: unknown) => (Array.isArray(value) ? 'a list' : 'an object');
/** Ids Cloud4Wi or a user may really have: each still reaches its own path, in every field. */
const LEGIT = [
	'c-12',
	'5f3c9a0e1b2d4c6e8f0a1b2c',
	'5f3c9a0e-1b2d-4c6e-8f0a-1b2c3d4e5f60',
	'a_b',
	'a:b',
	'user@example.com',
	'a.b',
	'...',
	'café',
	'東京',
];

const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const hotspotCreate = { name: 'Lobby AP', routerType: 'meraki', latitude: 45.4642, longitude: 9.19 };
const locationCreate = LOCATION_REQUIRED;
const optIns = { optIns: { optIn: [{ policy: 'privacy', accepted: true }] } };

/** Every operation that puts an id in a path, with each such field, its label, whether it is a locator, and other fields. */
const FIELDS: Array<[string, string, string, string, boolean, INodeParameters]> = [
	...[
		'get',
		'delete',
		'createAccessCode',
		'getWifiConnections',
		'getActivities',
		'getDevices',
		'getLocationEvents',
	].map(
		(op) =>
			['contact', op, 'contactId', 'Contact ID', false, {}] as [
				string,
				string,
				string,
				string,
				boolean,
				INodeParameters,
			],
	),
	['contact', 'updateOptIns', 'contactId', 'Contact ID', false, optIns],
	['contact', 'getAll', 'organizationId', 'Organization ID', false, {}],
	['event', 'getAll', 'organizationId', 'Organization ID', false, {}],
	['event', 'getAllForContact', 'organizationId', 'Organization ID', false, { contactId: 'c-1' }],
	['event', 'getAllForContact', 'contactId', 'Contact ID', false, {}],
	['wifiConnection', 'getAll', 'organizationId', 'Organization ID', false, {}],
	['segment', 'getAll', 'organizationId', 'Organization ID', false, {}],
	['hotspot', 'get', 'hotspotId', 'Hotspot', true, {}],
	['hotspot', 'delete', 'hotspotId', 'Hotspot', true, {}],
	['hotspot', 'update', 'hotspotId', 'Hotspot', true, { updateFields: { name: 'x' } }],
	['hotspot', 'getByIdentifier', 'hotspotIdentifier', 'Hotspot Identifier', false, {}],
	['hotspot', 'getAll', 'organizationId', 'Organization ID', false, {}],
	['hotspot', 'create', 'locationId', 'Location', true, hotspotCreate],
	['location', 'get', 'locationId', 'Location', true, {}],
	['location', 'delete', 'locationId', 'Location', true, {}],
	['location', 'delete', 'organizationId', 'Organization ID', false, { locationId: rl('l-1') }],
	['location', 'update', 'locationId', 'Location', true, { updateFields: { name: 'x' } }],
	[
		'location',
		'update',
		'organizationId',
		'Organization ID',
		false,
		{ locationId: rl('l-1'), updateFields: { name: 'x' } },
	],
	['location', 'getAll', 'organizationId', 'Organization ID', false, {}],
	['location', 'create', 'organizationId', 'Organization ID', false, locationCreate],
];

let ctx: TestContext;
beforeAll(async () => {
	ctx = await startCloud4Wi({ contacts: 5 });
});
afterAll(async () => {
	await ctx.sb.close();
});
beforeEach(() => ctx.sb.clearRequests());
const apiPaths = () => ctx.sb.requests.map((r) => r.path).filter((p) => !p.startsWith('/v1/sts/login'));

/** The item failed with a NodeOperationError naming `label`, and nothing at all reached the service. */
function refused(error: unknown, label: string): void {
	expect(error).toBeInstanceOf(NodeOperationError);
	expect((error as Error).message.startsWith(`${label}: `)).toBe(true);
	expect(ctx.sb.requests).toEqual([]);
}

describe.each(FIELDS)('%s %s, %s', (resource, operation, field, label, locator, rest) => {
	const params = (value: unknown): INodeParameters => ({ resource, operation, ...rest, [field]: value as string });

	// An empty organization means the credential's default (tested below); every other field must be given.
	const values = field === 'organizationId' ? HOSTILE.filter((v) => v.trim()) : HOSTILE;

	test.each(values)('typed %j: refused, nothing sent', async (value) => {
		if (value === '') {
			// n8n itself refuses to start a workflow with an empty required field.
			await expect(runAction(ctx, params(value))).rejects.toThrow(/is required/);
			expect(ctx.sb.requests).toEqual([]);
			return;
		}
		const result = await runAction(ctx, params(value));
		expect(result.error).toBeDefined();
		refused(lastThrownError(), label);
	});

	test.each(values)('mapped from the item %j: refused, nothing sent', async (value) => {
		await runAction(ctx, params(locator ? rl(`={{ $json.id }}`) : '={{ $json.id }}'), [{ id: value }]);
		refused(lastThrownError(), label);
	});

	test.each(NOT_ONE_ID)('mapped from the item as %j: refused, nothing sent', async (value) => {
		await runAction(ctx, params(locator ? rl(`={{ $json.id }}`) : '={{ $json.id }}'), [{ id: value as IDataObject }]);
		refused(lastThrownError(), label);
		expect((lastThrownError() as Error).message).toBe(`${label}: must be text or a number, got ${kindOf(value)}`);
	});

	test('mapped from the item as a number: sent as its digits', async () => {
		const result = await runAction(ctx, params(locator ? rl(`={{ $json.id }}`) : '={{ $json.id }}'), [{ id: 12345 }]);
		if (result.error) expect(result.error).not.toBeInstanceOf(NodeOperationError);
		const sent = ctx.sb.requests.some(
			(r) => r.path.includes('/12345') || (r.body as IDataObject | undefined)?.[field] === '12345',
		);
		expect(sent).toBe(true);
	});

	test.each(LEGIT)('typed %j (a fine id): sent as it is, encoded in the path', async (value) => {
		const result = await runAction(ctx, params(locator ? rl(value) : value));
		if (result.error) expect(result.error).not.toBeInstanceOf(NodeOperationError);
		// Hotspot Create sends its location in the body; every other field is a path segment.
		const sent = ctx.sb.requests.some(
			(r) => r.path.includes(`/${encodeURIComponent(value)}`) || (r.body as IDataObject | undefined)?.[field] === value,
		);
		expect(sent).toBe(true);
	});

	if (locator) {
		test.each(HOSTILE.slice(0, 8))('as a plain string where a locator is expected %j: refused', async (value) => {
			await runAction(ctx, params(value));
			refused(lastThrownError(), label);
		});
	}
});

test('Contact Delete with two contacts mapped into the Contact ID, or one inside an object: neither is deleted', async () => {
	const [a, b] = [ctx.sb.data.contacts[0]!.cid, ctx.sb.data.contacts[1]!.cid];
	for (const id of [[a, b], { cid: a }]) {
		ctx.sb.clearRequests();
		await runAction(ctx, { resource: 'contact', operation: 'delete', contactId: '={{ $json.id }}' }, [{ id }]);
		refused(lastThrownError(), 'Contact ID');
	}
	expect(ctx.sb.data.contacts[0]!.cid).toBe(a);
	expect(ctx.sb.data.contacts[1]!.cid).toBe(b);
});

/** Ids that go into a query, one per field: the same checks as a path id, as the service may read them the same way. */
const QUERY_IDS: Array<[string, string, string, string]> = [
	['hotspot', 'getAll', 'venueId', 'Filters > Location'],
	['wifiConnection', 'getAll', 'locationId', 'Filters > Location'],
	['wifiConnection', 'getAll', 'hotspotId', 'Filters > Hotspot'],
];
describe.each(QUERY_IDS)('%s %s, filter %s', (resource, operation, field, label) => {
	const params = (value: unknown): INodeParameters => ({
		resource,
		operation,
		limit: 1,
		filters: { [field]: value as string },
	});
	test.each([...NOT_ONE_ID.filter((v) => !Array.isArray(v) || v.length), 'a,b', 'a%2Cb', 'a\uff0cb'])(
		'mapped from the item as %j: refused, nothing sent',
		async (value) => {
			await runAction(ctx, params('={{ $json.id }}'), [{ id: value as IDataObject }]);
			refused(lastThrownError(), label);
		},
	);
	test('a number is sent as its digits', async () => {
		await runAction(ctx, params('={{ $json.id }}'), [{ id: 12345 }]);
		expect(ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login')).map((r) => r.query[field])).toEqual([
			'12345',
		]);
	});
});

describe.each([
	['segmentCids', 'Filters > Segment'],
	['locationCids', 'Filters > Location'],
])('contact getAll, filter %s (a list of ids)', (field, label) => {
	test.each([[['s-1', ['s-2']]], [[{ cid: 's-1' }]], [{ cid: 's-1' }]])(
		'mapped from the item as %j: refused, nothing sent',
		async (value) => {
			await runAction(
				ctx,
				{ resource: 'contact', operation: 'getAll', limit: 1, filters: { [field]: '={{ $json.id }}' } },
				[{ id: value }],
			);
			refused(lastThrownError(), label);
			expect((lastThrownError() as Error).message).toMatch(
				/has an entry that is (a list|an object), not text or a number$/,
			);
		},
	);
});

test('with Continue On Fail, each hostile id is an error item paired with its input, and a good one beside it runs', async () => {
	const good = ctx.sb.data.contacts[0]!.cid;
	const items: IDataObject[] = [{ id: '..' }, { id: good }, { id: 'a%2Fb' }, { id: 'x\ny' }];
	const result = await runAction(ctx, { resource: 'contact', operation: 'get', contactId: '={{ $json.id }}' }, items, {
		continueOnFail: true,
	});
	expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
	expect(result.json[0].error).toMatch(/^Contact ID: "\.\." is a dot segment/);
	expect(result.json[1].cid).toBe(good);
	expect(result.json[2].error).toMatch(/^Contact ID: "a%2Fb" contains .*\(once %-decoded: "a\/b"\)/);
	expect(result.json[3].error).toMatch(/^Contact ID: .* contains a control character/);
	expect(apiPaths()).toEqual([`/v2/customers/${good}`]);
});

test.each(['c-12', 'A_B-C.D', 'a b', '...', 'café', 'Ünïcödé', '\ufb01le', '  trimmed  '])(
	'a fine id %j is sent, encoded, to its own path',
	async (value) => {
		await runAction(ctx, { resource: 'contact', operation: 'get', contactId: value });
		expect(apiPaths()).toEqual([`/v2/customers/${encodeURIComponent(value.trim())}`.replace(/%20/g, '%20')]);
	},
);

test('an empty organization field uses the credential default organization', async () => {
	for (const organizationId of ['', '   ']) {
		ctx.sb.clearRequests();
		const result = await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true, organizationId });
		expect(result.error).toBeUndefined();
		expect(ctx.sb.requests.map((r) => r.path).filter((p) => !p.includes('login'))).toEqual([
			`/v2/segments/organizations/${ctx.sb.organizationId}`,
		]);
	}
});

describe("the credential's default organization", () => {
	let store: CredentialStore;
	test.each(HOSTILE.filter((v) => v.trim()))('%j, with the node field empty: refused, nothing sent', async (value) => {
		store = credentialFor(ctx.sb, { organizationId: value });
		await runAction({ sb: ctx.sb, store }, { resource: 'segment', operation: 'getAll', returnAll: true });
		refused(lastThrownError(), 'Organization ID (the credential’s default)');
	});
});

describe('the trigger', () => {
	const trigger = (parameters: INodeParameters) =>
		buildWorkflow({
			nodes: [node('Trigger', TRIGGER_TYPE, parameters), node('Done', 'test.noOp', {})],
			connections: { Trigger: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
		});

	test.each(HOSTILE.filter((v) => v.trim()))(
		'organization %j: the poll fails naming the field, nothing sent',
		async (value) => {
			for (const mode of ['trigger', 'manual'] as const) {
				await expect(
					pollOnce(trigger({ organizationId: value, events: ['signup'] }), ctx.store, 'Trigger', mode),
				).rejects.toThrow(/^Organization ID: /);
				expect(ctx.sb.requests).toEqual([]);
			}
		},
	);

	test.each(HOSTILE.filter((v) => v.trim() && !v.includes(',')))(
		'location %j: the poll fails naming the field, nothing sent',
		async (value) => {
			for (const mode of ['trigger', 'manual'] as const) {
				await expect(
					pollOnce(trigger({ events: ['signup'], options: { locationIds: [value] } }), ctx.store, 'Trigger', mode),
				).rejects.toThrow(/^Options > Location Names or IDs: /);
				expect(ctx.sb.requests).toEqual([]);
			}
		},
	);
});

describe('the dropdowns', () => {
	const methods: Array<[string, string]> = [
		['loadOptions', 'getLocations'],
		['loadOptions', 'getSegments'],
		['loadOptions', 'getHotspots'],
		['listSearch', 'searchLocations'],
		['listSearch', 'searchHotspots'],
	];
	test.each(methods)(
		'%s %s with a hostile organization in the node or the credential: refused, nothing sent',
		async (_, method) => {
			for (const value of [
				'..',
				'a/b',
				'%2e%2e',
				'a\nb',
				'a%252Fb',
				'a%2Fb%',
				'a%c0%afb',
				'a\uff0fb',
				'a\u2215b',
				'a;v=1',
				'a,b',
				'a%2Cb',
			]) {
				const action = node('Cloud4Wi', 'n8n-nodes-cloud4wi.cloud4Wi', {
					resource: 'hotspot',
					operation: 'getAll',
					organizationId: value,
				});
				await expect(loadOptionsOf(ctx.store, action, method)).rejects.toThrow(/^Organization ID: /);
				const fromCredential = credentialFor(ctx.sb, { organizationId: value });
				const empty = node('Cloud4Wi', 'n8n-nodes-cloud4wi.cloud4Wi', { resource: 'hotspot', operation: 'getAll' });
				await expect(loadOptionsOf(fromCredential, empty, method)).rejects.toThrow(/^Organization ID \(the credential’s default\): /);
				expect(ctx.sb.requests).toEqual([]);
			}
		},
	);
});
