/**
 * No id can choose the endpoint, whichever way it reaches the node: through every field that puts an id in a URL path
 * (or sends it as an id in a query or body), typed, mapped from the item, as a resource locator, as a list or an
 * object, as a number; through the credential's default organization, the trigger and the dropdowns. Each hostile id
 * fails its item with an error naming the field, and the sandbox sees nothing; fine ids still arrive, encoded.
 *
 * Two hostile ids per way, a dot segment and a control character: the whole catalogue runs against the check itself
 * in test/unit/path-ids.test.ts. The id fields are read from the node's description, so a new one that skips the
 * check fails the first test below.
 */
import type { IDataObject, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import {
	ACTION_TYPE,
	credentialFor,
	LOCATION_REQUIRED,
	node,
	runAction,
	startCloud4Wi,
	TRIGGER_TYPE,
	triggerWorkflow,
} from '../harness/cloud4wi';
import { buildWorkflow, lastThrownError, loadOptionsOf, nodeTypes, pollOnce } from '../harness/engine';

/** A dot segment and a control character: two classes of the catalogue that no other check would catch. */
const HOSTILE = ['..', 'a\nb'];
/** A third class (an escaped "/") for the sweep over every field of the description. */
const ROUTE = 'a%2Fb';
/** Ids a user may really have: a uuid as Cloud4Wi makes them, and one that must be encoded on its way. */
const LEGIT = ['5f3c9a0e-1b2d-4c6e-8f0a-1b2c3d4e5f60', 'café'];

const rl = (value: unknown) => ({ __rl: true as const, mode: 'id', value: value as string });
const MAPPED = '={{ $json.id }}';
const hotspotCreate = { name: 'Lobby AP', routerType: 'meraki', latitude: 45.4642, longitude: 9.19 };

/** How the field takes an id: as text, as a resource locator (From List / ID), or as a list of ids. */
type Kind = 'text' | 'locator' | 'list';
/** Resource, operation, the field (dotted when inside a collection), its label in messages, its kind, other fields. */
type Row = [string, string, string, string, Kind, INodeParameters];

const contactOps = [
	'get',
	'delete',
	'createAccessCode',
	'getWifiConnections',
	'getActivities',
	'getDevices',
	'getLocationEvents',
];
/** Every field whose value is checked as an id, with what else its operation needs to get that far. */
const FIELDS: Row[] = [
	...contactOps.map((op): Row => ['contact', op, 'contactId', 'Contact ID', 'text', {}]),
	[
		'contact',
		'updateOptIns',
		'contactId',
		'Contact ID',
		'text',
		{ optIns: { optIn: [{ policy: 'privacy', accepted: true }] } },
	],
	['contact', 'getAll', 'organizationId', 'Organization ID', 'text', { limit: 1 }],
	['contact', 'getAll', 'filters.segmentCids', 'Filters > Segment', 'list', { limit: 1 }],
	['contact', 'getAll', 'filters.locationCids', 'Filters > Location', 'list', { limit: 1 }],
	['event', 'getAll', 'organizationId', 'Organization ID', 'text', { limit: 1 }],
	['event', 'getAllForContact', 'organizationId', 'Organization ID', 'text', { contactId: 'c-1', limit: 1 }],
	['event', 'getAllForContact', 'contactId', 'Contact ID', 'text', { limit: 1 }],
	['wifiConnection', 'getAll', 'organizationId', 'Organization ID', 'text', { limit: 1 }],
	['wifiConnection', 'getAll', 'filters.locationId', 'Filters > Location', 'text', { limit: 1 }],
	['wifiConnection', 'getAll', 'filters.hotspotId', 'Filters > Hotspot', 'text', { limit: 1 }],
	['segment', 'getAll', 'organizationId', 'Organization ID', 'text', { limit: 1 }],
	['hotspot', 'get', 'hotspotId', 'Hotspot', 'locator', {}],
	['hotspot', 'delete', 'hotspotId', 'Hotspot', 'locator', {}],
	['hotspot', 'update', 'hotspotId', 'Hotspot', 'locator', { updateFields: { name: 'x' } }],
	['hotspot', 'update', 'locationId', 'Location', 'locator', { hotspotId: rl('h-1'), updateFields: { name: 'x' } }],
	[
		'hotspot',
		'update',
		'organizationId',
		'Organization ID',
		'text',
		{ hotspotId: rl('h-1'), locationId: rl('l-1'), updateFields: { name: 'x' } },
	],
	['hotspot', 'getByIdentifier', 'hotspotIdentifier', 'Hotspot Identifier', 'text', {}],
	['hotspot', 'getAll', 'organizationId', 'Organization ID', 'text', { limit: 1 }],
	['hotspot', 'getAll', 'filters.venueId', 'Filters > Location', 'text', { limit: 1 }],
	['hotspot', 'create', 'locationId', 'Location', 'locator', hotspotCreate],
	['hotspot', 'create', 'organizationId', 'Organization ID', 'text', { ...hotspotCreate, locationId: rl('l-1') }],
	['location', 'get', 'locationId', 'Location', 'locator', {}],
	['location', 'delete', 'locationId', 'Location', 'locator', {}],
	['location', 'delete', 'organizationId', 'Organization ID', 'text', { locationId: rl('l-1') }],
	['location', 'update', 'locationId', 'Location', 'locator', { updateFields: { name: 'x' } }],
	[
		'location',
		'update',
		'organizationId',
		'Organization ID',
		'text',
		{ locationId: rl('l-1'), updateFields: { name: 'x' } },
	],
	['location', 'getAll', 'organizationId', 'Organization ID', 'text', {}],
	['location', 'create', 'organizationId', 'Organization ID', 'text', LOCATION_REQUIRED],
];

/**
 * Fields named like ids that are not ids of a Cloud4Wi record: each is sent as text in a JSON body or a query string,
 * never in a path (their text checks are in non-text-values.test.ts).
 */
const PLAIN_TEXT = [
	'contact getAll, filters.extId',
	'hotspot create, additionalFields.hotspotIdentifier',
	'hotspot getAll, filters.hotspotIdentifier',
	'location create, additionalFields.externalId',
	'location create, additionalFields.organizationPlanId',
	'location create, locationProfileId',
	'location create, loginProfileId',
	'location create, welcomePortalId',
	'location update, updateFields.externalId',
];

/** The trigger's id fields, with their labels. */
const TRIGGER_FIELDS: Array<[string, string, (value: string) => INodeParameters]> = [
	['organizationId', 'Organization ID', (value) => ({ organizationId: value, events: ['signup'] })],
	[
		'options.locationIds',
		'Options > Location Names or IDs',
		(value) => ({ events: ['signup'], options: { locationIds: [value] } }),
	],
];

const keyOf = (resource: string, operation: string, field: string) => `${resource} ${operation}, ${field}`;

/** A field, as the node's description has it: where it shows, its dotted name, and how it reads in a message. */
interface DescribedField {
	key: string;
	resource: string;
	operation: string;
	field: string;
	label: string;
	kind: Kind;
}

/**
 * Every field of a node's description that holds an id: a resource locator, a dropdown of Cloud4Wi records, or a
 * name ending in Id, Ids, Cids or Identifier.
 */
function idFieldsOf(properties: INodeProperties[], show: IDataObject = {}, parent?: INodeProperties): DescribedField[] {
	const found: DescribedField[] = [];
	for (const p of properties) {
		const where = { ...show, ...(p.displayOptions?.show ?? {}) } as IDataObject;
		const isId =
			p.type === 'resourceLocator' ||
			p.typeOptions?.loadOptionsMethod !== undefined ||
			/(?:Id|Ids|Cids|Identifier)$/.test(p.name);
		if (isId) {
			const field = parent ? `${parent.name}.${p.name}` : p.name;
			const name = p.displayName.replace(/ Names? or IDs?$/, '');
			const label = parent ? `${parent.displayName} > ${name}` : name;
			const kind: Kind = p.type === 'resourceLocator' ? 'locator' : p.type === 'multiOptions' ? 'list' : 'text';
			for (const resource of (where.resource as string[] | undefined) ?? [''])
				for (const operation of (where.operation as string[] | undefined) ?? [''])
					found.push({ key: keyOf(resource, operation, field), resource, operation, field, label, kind });
		}
		for (const option of (p.options ?? []) as INodeProperties[]) {
			if ('type' in option) found.push(...idFieldsOf([option], where, p));
		}
	}
	return found;
}
const description = (type: string) => (nodeTypes.getByNameAndVersion(type) as INodeType).description;

/** The node's parameters with `value` in the row's field (inside its collection when dotted). */
function paramsFor(row: Row, value: unknown): INodeParameters {
	const [resource, operation, field, , , rest] = row;
	const [group, name] = field.includes('.') ? field.split('.') : [undefined, field];
	if (!group) return { resource, operation, ...rest, [name]: value as string };
	return { resource, operation, ...rest, [group]: { ...((rest[group] as IDataObject) ?? {}), [name]: value } };
}
/** A value as the user types it into the field. */
const typed = (kind: Kind, value: string) => (kind === 'locator' ? rl(value) : kind === 'list' ? [value] : value);
/** The field set to map `$json.id` from the item. */
const mapped = (kind: Kind) => (kind === 'locator' ? rl(MAPPED) : MAPPED);

let ctx: TestContext;
beforeAll(async () => {
	ctx = await startCloud4Wi({ contacts: 5 });
});
afterAll(async () => {
	await ctx.sb.close();
});
beforeEach(() => ctx.sb.clearRequests());

/** Why the last run did not refuse its item naming `label` with nothing sent; undefined when it did. */
function notRefused(label: string): string | undefined {
	const sent = ctx.sb.requests.map((r) => `${r.method} ${r.path}`);
	if (sent.length) return `sent ${sent.join(', ')}`;
	const error = lastThrownError();
	if (!(error instanceof NodeOperationError)) return `failed with ${String(error)}, not an input error`;
	if (!error.message.startsWith(`${label}: `)) return `the message does not name ${label}: ${error.message}`;
	return undefined;
}
function refused(label: string): void {
	expect(notRefused(label)).toBeUndefined();
}
/** Some request carried `value` as a path segment (encoded), a query value or a body value. */
function arrived(value: string): boolean {
	return ctx.sb.requests.some(
		(r) =>
			r.path.split('/').includes(encodeURIComponent(value)) ||
			Object.values(r.query).includes(value) ||
			Object.values((r.body as IDataObject | undefined) ?? {}).includes(value),
	);
}

test('every id field of the node, the trigger and the dropdowns is checked: an escaped "/" in any of them is refused', async () => {
	const actionFields = idFieldsOf(description(ACTION_TYPE).properties);
	const tableKeys = new Set(FIELDS.map(([r, o, f]) => keyOf(r, o, f)));
	const problems: string[] = [];
	for (const described of actionFields) {
		if (PLAIN_TEXT.includes(described.key)) continue;
		const row =
			FIELDS.find(([r, o, f]) => keyOf(r, o, f) === described.key) ??
			([described.resource, described.operation, described.field, described.label, described.kind, {}] as Row);
		if (!tableKeys.has(described.key)) problems.push(`${described.key}: not in the table of id fields`);
		ctx.sb.clearRequests();
		const why = await runAction(ctx, paramsFor(row, typed(row[4], ROUTE))).then(
			() => notRefused(row[3]),
			(error: unknown) => `the run did not start: ${String(error)}`,
		);
		if (why) problems.push(`${described.key}: ${why}`);
	}
	const described = new Set(actionFields.map((f) => f.key));
	for (const key of tableKeys) if (!described.has(key)) problems.push(`${key}: in the table, not in the description`);

	const triggerFields = idFieldsOf(description(TRIGGER_TYPE).properties).map((f) => f.field);
	for (const field of triggerFields)
		if (!TRIGGER_FIELDS.some(([known]) => known === field))
			problems.push(`trigger, ${field}: not in the table of id fields`);
	for (const [field, label, parameters] of TRIGGER_FIELDS) {
		ctx.sb.clearRequests();
		const workflow = buildWorkflow(triggerWorkflow(parameters(ROUTE)));
		const error = await pollOnce(workflow, ctx.store, 'Trigger', 'manual').then(
			() => undefined,
			(e: unknown) => e,
		);
		if (!(error instanceof NodeOperationError) || !error.message.startsWith(`${label}: `) || ctx.sb.requests.length)
			problems.push(`trigger, ${field}: not refused (${String(error)})`);
	}

	for (const type of [ACTION_TYPE, TRIGGER_TYPE]) {
		const methods = (nodeTypes.getByNameAndVersion(type) as INodeType).methods ?? {};
		for (const method of [...Object.keys(methods.loadOptions ?? {}), ...Object.keys(methods.listSearch ?? {})]) {
			ctx.sb.clearRequests();
			const withOrg = node('N', type, { resource: 'hotspot', operation: 'getAll', organizationId: ROUTE });
			const error = await loadOptionsOf(ctx.store, withOrg, method).then(
				() => undefined,
				(e: unknown) => e,
			);
			if (
				!(error instanceof NodeOperationError) ||
				!error.message.startsWith('Organization ID: ') ||
				ctx.sb.requests.length
			)
				problems.push(`${type} dropdown ${method}: not refused (${String(error)})`);
		}
	}
	expect(problems).toEqual([]);
});

describe.each(FIELDS)('%s %s, %s', (resource, operation, field, label, kind, rest) => {
	const row: Row = [resource, operation, field, label, kind, rest];

	test.each(HOSTILE)('typed %j: refused, nothing sent', async (value) => {
		const result = await runAction(ctx, paramsFor(row, typed(kind, value)));
		expect(result.error).toBeDefined();
		refused(label);
	});

	test.each(HOSTILE)('mapped from the item %j: refused, nothing sent', async (value) => {
		await runAction(ctx, paramsFor(row, mapped(kind)), [{ id: value }]);
		refused(label);
	});

	if (kind === 'locator') {
		// Older workflows and AI tools give the id as a plain string where the locator is expected.
		test.each(HOSTILE)('as a plain string where a locator is expected %j: refused, nothing sent', async (value) => {
			await runAction(ctx, paramsFor(row, value));
			refused(label);
		});
	}

	// String() made "c-1,c-2" or "[object Object]" of these; in a list field, each entry must be one id.
	const notOneId: unknown[] = kind === 'list' ? [['s-1', ['s-2']], { cid: 's-1' }] : [['c-1', 'c-2'], { cid: 'c-1' }];
	test.each(notOneId)('mapped from the item as %j: refused, nothing sent', async (value) => {
		await runAction(ctx, paramsFor(row, mapped(kind)), [{ id: value as IDataObject }]);
		refused(label);
		const kindOf = (v: unknown) => (Array.isArray(v) ? 'a list' : 'an object');
		const entry = Array.isArray(value) ? value[value.length - 1] : value;
		expect((lastThrownError() as Error).message).toBe(
			kind === 'list'
				? `${label}: has an entry that is ${kindOf(entry)}, not text or a number`
				: `${label}: must be text or a number, got ${kindOf(value)}`,
		);
	});

	test('mapped from the item as a number: sent as its digits', async () => {
		const result = await runAction(ctx, paramsFor(row, mapped(kind)), [{ id: 12345 }]);
		if (result.error) expect(lastThrownError()).not.toBeInstanceOf(NodeOperationError);
		expect(arrived('12345')).toBe(true);
	});

	test.each(LEGIT)('typed %j (a fine id): sent as it is, encoded in a path', async (value) => {
		const result = await runAction(ctx, paramsFor(row, typed(kind, value)));
		if (result.error) expect(lastThrownError()).not.toBeInstanceOf(NodeOperationError);
		expect(arrived(value)).toBe(true);
	});
});

test('an empty Contact ID, typed or mapped: refused before any request', async () => {
	// n8n itself refuses to start a workflow with an empty required field.
	await expect(runAction(ctx, { resource: 'contact', operation: 'get', contactId: '' })).rejects.toThrow(/is required/);
	expect(ctx.sb.requests).toEqual([]);
	await runAction(ctx, { resource: 'contact', operation: 'get', contactId: MAPPED }, [{ id: '  ' }]);
	refused('Contact ID');
	expect((lastThrownError() as NodeOperationError).description).toBe(
		'Enter the Contact ID or map it from an earlier node.',
	);
});

test('Contact Delete with two contacts mapped into the Contact ID, or one inside an object: neither is deleted', async () => {
	const [a, b] = [ctx.sb.data.contacts[0]!.cid, ctx.sb.data.contacts[1]!.cid];
	for (const id of [[a, b], { cid: a }]) {
		ctx.sb.clearRequests();
		await runAction(ctx, { resource: 'contact', operation: 'delete', contactId: MAPPED }, [{ id }]);
		refused('Contact ID');
	}
	expect(ctx.sb.data.contacts[0]!.cid).toBe(a);
	expect(ctx.sb.data.contacts[1]!.cid).toBe(b);
});

test('with Continue On Fail, each hostile id is an error item paired with its input, and a good one beside it runs', async () => {
	const good = ctx.sb.data.contacts[0]!.cid;
	const items: IDataObject[] = [{ id: '..' }, { id: good }, { id: 'a%2Fb' }, { id: 'x\ny' }];
	const result = await runAction(ctx, { resource: 'contact', operation: 'get', contactId: MAPPED }, items, {
		continueOnFail: true,
	});
	expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
	expect(result.json[0].error).toMatch(/^Contact ID: "\.\." is a dot segment/);
	expect(result.json[1].cid).toBe(good);
	expect(result.json[2].error).toMatch(/^Contact ID: "a%2Fb" contains .*\(once %-decoded: "a\/b"\)/);
	expect(result.json[3].error).toMatch(/^Contact ID: .* contains a control character/);
	expect(ctx.sb.requests.map((r) => r.path).filter((p) => !p.startsWith('/v1/sts/login'))).toEqual([
		`/v2/customers/${good}`,
	]);
});

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

test.each(HOSTILE)(
	"the credential's default organization %j, with the node field empty: refused, nothing sent",
	async (value) => {
		const store = credentialFor(ctx.sb, { organizationId: value });
		await runAction({ store }, { resource: 'segment', operation: 'getAll', returnAll: true });
		refused('Organization ID (the credential’s default)');
	},
);

describe.each(TRIGGER_FIELDS)('the trigger, %s', (_, label, parameters) => {
	test.each(HOSTILE)('%j: the poll fails naming the field, nothing sent', async (value) => {
		const workflow = buildWorkflow(triggerWorkflow(parameters(value)));
		for (const mode of ['trigger', 'manual'] as const) {
			const poll = pollOnce(workflow, ctx.store, 'Trigger', mode);
			await expect(poll).rejects.toThrow(new RegExp(`^${label}: `));
			await expect(poll).rejects.toBeInstanceOf(NodeOperationError);
			expect(ctx.sb.requests).toEqual([]);
		}
	});
});

describe('the dropdowns', () => {
	const methods: Array<[string, string]> = [
		['loadOptions', 'getLocations'],
		['loadOptions', 'getSegments'],
		['loadOptions', 'getHotspots'],
		['listSearch', 'searchLocations'],
		['listSearch', 'searchHotspots'],
	];
	describe.each(methods)('%s %s', (_, method) => {
		test.each(HOSTILE)('organization %j in the node or the credential: refused, nothing sent', async (value) => {
			const action = node('Cloud4Wi', ACTION_TYPE, { resource: 'hotspot', operation: 'getAll', organizationId: value });
			await expect(loadOptionsOf(ctx.store, action, method)).rejects.toThrow(/^Organization ID: /);
			const fromCredential = credentialFor(ctx.sb, { organizationId: value });
			const empty = node('Cloud4Wi', ACTION_TYPE, { resource: 'hotspot', operation: 'getAll' });
			await expect(loadOptionsOf(fromCredential, empty, method)).rejects.toThrow(
				/^Organization ID \(the credential’s default\): /,
			);
			expect(ctx.sb.requests).toEqual([]);
		});
	});
});
