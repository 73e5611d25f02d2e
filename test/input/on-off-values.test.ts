/** On/off values mapped from data: read as what they say, or refused; by the reader, then through every on/off field. */
import fc from 'fast-check';
import type { IDataObject, INodeParameters, INodeProperties, INodeType, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { notOnOffProblem, onOffOf } from '../../nodes/Cloud4Wi/shared/formats';
import type { TestContext } from '../harness/cloud4wi';
import { ACTION_TYPE, LOCATION_REQUIRED, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { lastThrownError, nodeTypes } from '../harness/engine';
import { ItemInput } from '../../nodes/Cloud4Wi/shared/input';

/**
 * The on/off reading, value by value: mapped data gives text ("false" from a sheet, a form or JSON text), and
 * Boolean("false") is true. Every spelling of the catalogue is read by `onOffOf` as what it says, and anything unclear
 * is refused with a message that shows it. The section "every on/off field" runs two
 * of these through every field.
 */
describe('the reader, value by value', () => {
	const SAYS_FALSE: unknown[] = [false, 'false', 'FALSE', 'False', ' false ', '\tfalse\n', '0', ' 0 ', 0];
	const SAYS_TRUE: unknown[] = [true, 'true', 'TRUE', ' TRUE ', '1', ' 1 ', 1];
	const UNCLEAR: Array<[unknown, string]> = [
		['no', '"no"'],
		['yes', '"yes"'],
		['on', '"on"'],
		['off', '"off"'],
		['', '""'],
		[' ', '" "'],
		['maybe', '"maybe"'],
		['true false', '"true false"'],
		['2', '"2"'],
		[2, '"2"'],
		[-1, '"-1"'],
		[0.5, '"0.5"'],
		[NaN, '"NaN"'],
		[null, 'null'],
		[undefined, 'undefined'],
		[{}, 'an object'],
		[[], 'a list'],
		[[true], 'a list'],
	];

	test.each(SAYS_FALSE)('%j is off', (value) => {
		expect(onOffOf(value)).toBe(false);
	});

	test.each(SAYS_TRUE)('%j is on', (value) => {
		expect(onOffOf(value)).toBe(true);
	});

	test.each(UNCLEAR)('%j is refused, shown as %s', (value, shown) => {
		expect(onOffOf(value)).toBeUndefined();
		expect(notOnOffProblem(value)).toBe(`must be true or false, got ${shown}`);
	});

	const RUNS = { numRuns: 300 };
	/** Spaces a sheet cell or a form may leave around a value. */
	const padding = fc.stringMatching(/^[ \t\n\r]{0,3}$/);

	describe('generated', () => {
		test('"true" and "false" in any case, with spaces around: read as what they say', () => {
			fc.assert(
				fc.property(
					fc.constantFrom('true', 'false', '1', '0'),
					fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
					padding,
					padding,
					(word, upper, before, after) => {
						const typed = [...word].map((char, i) => (upper[i] ? char.toUpperCase() : char)).join('');
						expect(onOffOf(before + typed + after)).toBe(word === 'true' || word === '1');
					},
				),
				RUNS,
			);
		});

		test('any other text is refused, never read as on', () => {
			fc.assert(
				fc.property(fc.string({ maxLength: 8 }), (text) => {
					fc.pre(!['true', 'false', '1', '0'].includes(text.trim().toLowerCase()));
					expect(onOffOf(text)).toBeUndefined();
				}),
				RUNS,
			);
		});

		test('any number but 0 and 1, any list and any object: refused', () => {
			fc.assert(
				fc.property(fc.oneof(fc.double(), fc.array(fc.anything()), fc.object()), (value) => {
					fc.pre(value !== 0 && value !== 1);
					expect(onOffOf(value)).toBeUndefined();
				}),
				RUNS,
			);
		});
	});
});

/**
 * An on/off value mapped from data arrives as text ("false" from a sheet, a form or JSON text), and Boolean("false")
 * is true. Every on/off field of every operation is mapped here from the item: a spelling of false and one of true
 * must send exactly what the real boolean sends (requests and output alike), and an unclear text or a list fails the
 * item naming the field, with nothing sent. Every spelling of the catalogue is read by the check itself, above.
 */
describe('every on/off field', () => {
	/** Text that Boolean() reads as true though it says false, and a true as a sheet gives it. */
	const SAYS: Array<[unknown, boolean]> = [
		['false', false],
		['1', true],
	];
	/** An answer that is not yes or no, and a list mapped where one value belongs. */
	const UNCLEAR: unknown[] = ['no', []];

	const MAPPED = '={{ $json.v }}';
	const ADDRESS = { country: 'IT', address: 'Via Roma 1', city: 'Milan', state: 'MI', zip: '20121' };

	let ctx: TestContext;
	/** A contact with at least two records in each of its lists, so Return All shows in the output. */
	let busyContact: string;
	let hotspotId: string;
	let locationId: string;

	/** Resource, operation, where the field sits (for the completeness check), its label, and the node's parameters. */
	type Row = [string, string, string, string, (v: string) => INodeParameters];

	const getMany = (resource: string, operation: string, rest: () => INodeParameters = () => ({})): Row => [
		resource,
		operation,
		'returnAll',
		'Return All',
		(v) => ({ resource, operation, returnAll: v, limit: 1, ...rest() }),
	];
	const simplify = (resource: string, operation: string, rest: () => INodeParameters): Row => [
		resource,
		operation,
		'simplify',
		'Simplify',
		(v) => ({ resource, operation, simplify: v, limit: 2, ...rest() }),
	];
	const contactToggle = (name: string, label: string): Row => [
		'contact',
		'getAll',
		`filters.${name}`,
		`Filters > ${label}`,
		(v) => ({ resource: 'contact', operation: 'getAll', limit: 3, filters: { [name]: v } }),
	];

	const ROWS: Row[] = [
		getMany('contact', 'getAll'),
		...['getActivities', 'getDevices', 'getLocationEvents', 'getWifiConnections'].map((op) =>
			getMany('contact', op, () => ({ contactId: busyContact })),
		),
		getMany('event', 'getAll'),
		getMany('event', 'getAllForContact', () => ({ contactId: busyContact })),
		getMany('hotspot', 'getAll'),
		getMany('location', 'getAll'),
		getMany('segment', 'getAll'),
		getMany('wifiConnection', 'getAll'),
		simplify('contact', 'get', () => ({ contactId: busyContact })),
		simplify('contact', 'getAll', () => ({})),
		simplify('event', 'getAll', () => ({})),
		simplify('event', 'getAllForContact', () => ({ contactId: busyContact })),
		contactToggle('hasEmail', 'Has Email'),
		contactToggle('emailVerified', 'Email Verified'),
		contactToggle('hasPhone', 'Has Phone'),
		contactToggle('phoneVerified', 'Phone Verified'),
		contactToggle('mktgCommunications', 'Marketing Opt-In'),
		contactToggle('ageVerification', 'Age Verified'),
		[
			'contact',
			'getAll',
			'filters.sortReverse',
			'Filters > Reverse Order',
			(v) => ({ resource: 'contact', operation: 'getAll', limit: 3, filters: { sortBy: 'created', sortReverse: v } }),
		],
		...['getAll', 'getAllForContact'].map(
			(operation): Row => [
				'event',
				operation,
				'filters.sortReverse',
				'Filters > Newest First',
				(v) => ({ resource: 'event', operation, contactId: busyContact, limit: 3, filters: { sortReverse: v } }),
			],
		),
		[
			'contact',
			'updateOptIns',
			'optIns.optIn.accepted',
			'Opt-Ins > Accepted',
			(v) => ({
				resource: 'contact',
				operation: 'updateOptIns',
				contactId: busyContact,
				optIns: { optIn: [{ policy: 'mktgCommunications', accepted: v }] },
			}),
		],
		[
			'contact',
			'updateOptIns',
			'options.failOnPartial',
			'Options > Error If Some Not Updated',
			(v) => ({
				resource: 'contact',
				operation: 'updateOptIns',
				contactId: busyContact,
				// An opt-in title the contact's organization does not have: Cloud4Wi answers 207.
				optIns: { optIn: [{ policy: 'custom', customTitle: 'No Such Club', accepted: true }] },
				options: { failOnPartial: v },
			}),
		],
		[
			'hotspot',
			'getAll',
			'filters.deleted',
			'Filters > Deleted',
			(v) => ({ resource: 'hotspot', operation: 'getAll', returnAll: true, filters: { deleted: v } }),
		],
		[
			'hotspot',
			'create',
			'addressAsLocation',
			'Use Location Address',
			(v) => ({
				resource: 'hotspot',
				operation: 'create',
				name: 'Lobby AP',
				routerType: 'meraki',
				latitude: 45.4642,
				longitude: 9.19,
				locationId: { __rl: true, mode: 'id', value: locationId },
				addressAsLocation: v,
				...ADDRESS,
			}),
		],
		...[
			['enabled', 'Enabled'],
			['addressAsLocation', 'Use Location Address'],
		].map(
			([name, label]): Row => [
				'hotspot',
				'update',
				`updateFields.${name}`,
				`Update Fields > ${label}`,
				(v) => ({
					resource: 'hotspot',
					operation: 'update',
					hotspotId: { __rl: true, mode: 'id', value: hotspotId },
					updateFields: { ...ADDRESS, [name]: v },
				}),
			],
		),
		...[
			['enabled', 'Enabled'],
			['onNet', 'On Net'],
		].map(
			([name, label]): Row => [
				'location',
				'create',
				`additionalFields.${name}`,
				label,
				(v) => ({ resource: 'location', operation: 'create', ...LOCATION_REQUIRED, additionalFields: { [name]: v } }),
			],
		),
	];

	/** Ids, scroll ids and times the service makes up anew on every call. */
	const VOLATILE = /^(?:[0-9a-f]{24}|\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)$/;
	function steady(value: unknown): unknown {
		return JSON.parse(JSON.stringify(value ?? null), (key, v: unknown) =>
			(typeof v === 'string' && VOLATILE.test(v)) || key === 'sid' || key === 'scrollId' ? '<volatile>' : v,
		);
	}

	/** What one run did: the requests the sandbox saw (logins left out), the output and the error. */
	async function observe(params: INodeParameters, value: unknown) {
		ctx.sb.clearRequests();
		const result = await runAction(ctx, params, [{ v: value as IDataObject }]);
		return steady({
			requests: ctx.sb.requests
				.filter((r) => !r.path.startsWith('/v1/sts/login'))
				.map(({ method, path, query, body }) => ({ method, path, query, body })),
			output: result.json,
			error: result.error?.message,
		});
	}

	beforeAll(async () => {
		ctx = await startCloud4Wi({ contacts: 40 });
		locationId = ctx.sb.data.locations[0]!.id;
		hotspotId = ctx.sb.data.hotspots.find((h) => !h.deleted)!.id;
		await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in once, up front
		const count = async (operation: string, contactId: string) =>
			(await runAction(ctx, { resource: 'contact', operation, contactId, returnAll: true })).json.length;
		for (const { cid } of ctx.sb.data.contacts) {
			const counts = await Promise.all(
				['getActivities', 'getDevices', 'getLocationEvents', 'getWifiConnections'].map((op) => count(op, cid)),
			);
			const events = (
				await runAction(ctx, { resource: 'event', operation: 'getAllForContact', contactId: cid, returnAll: true })
			).json.length;
			if (Math.min(...counts, events) >= 2) {
				busyContact = cid;
				break;
			}
		}
		expect(busyContact).toBeDefined();
	});
	afterAll(async () => {
		await ctx.sb.close();
	});

	describe.each(ROWS)('%s %s, %s', (_resource, _operation, _where, label, params) => {
		const reference: Record<'true' | 'false', unknown> = { true: undefined, false: undefined };
		beforeAll(async () => {
			reference.true = await observe(params(MAPPED), true);
			reference.false = await observe(params(MAPPED), false);
		});

		test('true and false (real booleans) do different things, so a wrong reading shows', () => {
			expect(reference.true).not.toEqual(reference.false);
			expect(JSON.stringify(reference.false)).not.toMatch(/must be true or false/);
		});

		test.each(SAYS)('mapped %j: sends and returns what %s does', async (value, meaning) => {
			expect(await observe(params(MAPPED), value)).toEqual(reference[String(meaning) as 'true' | 'false']);
		});

		test.each(UNCLEAR)('mapped %j: refused naming the field, nothing sent', async (value) => {
			ctx.sb.clearRequests();
			const result = await runAction(ctx, params(MAPPED), [{ v: value as IDataObject }]);
			expect(result.error).toBeDefined();
			expect(result.json).toEqual([]);
			const error = lastThrownError();
			expect(error).toBeInstanceOf(NodeOperationError);
			expect((error as Error).message).toBe(
				`${label}: must be true or false, got ${Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `"${String(value)}"`}`,
			);
			expect(ctx.sb.requests).toEqual([]);
		});
	});

	test('the table holds every on/off field of every operation', () => {
		const found = new Set<string>();
		const walk = (properties: INodeProperties[], show: IDataObject, prefix: string) => {
			for (const p of properties) {
				const where = { ...show, ...(p.displayOptions?.show ?? {}) } as IDataObject;
				if (p.type === 'boolean') {
					for (const resource of (where.resource as string[] | undefined) ?? [])
						for (const operation of (where.operation as string[] | undefined) ?? [])
							found.add(`${resource} ${operation}, ${prefix}${p.name}`);
				}
				for (const option of (p.options ?? []) as Array<INodeProperties & { values?: INodeProperties[] }>) {
					if ('type' in option) walk([option], where, `${prefix}${p.name}.`);
					if (option.values) walk(option.values, where, `${prefix}${p.name}.${option.name}.`);
				}
			}
		};
		walk((nodeTypes.getByNameAndVersion(ACTION_TYPE) as INodeType).description.properties, {}, '');
		expect([...found].sort()).toEqual(ROWS.map(([r, o, where]) => `${r} ${o}, ${where}`).sort());
	});
});

/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
describe('ItemInput readers', () => {
	const input = new ItemInput({ getNode: () => ({ name: 'Cloud4Wi' }) } as IExecuteFunctions, 0);

	test.each([
		[true, true],
		['true', true],
		[' TRUE ', true],
		['1', true],
		[' 1 ', true],
		[1, true],
		[false, false],
		['False', false],
		['\tfalse\n', false],
		['0', false],
		[0, false],
	])('on/off %j is %s', (value, meaning) => {
		expect(input.onOff(value, 'Field')).toBe(meaning);
	});

	test.each([
		'no',
		'yes',
		'on',
		'off',
		'',
		' ',
		'maybe',
		'true false',
		'2',
		2,
		-1,
		0.5,
		NaN,
		null,
		undefined,
		{},
		[],
		[true],
	])('on/off %j is refused, naming the field', (value) => {
		expect(() => input.onOff(value, 'Filters > Deleted')).toThrow(NodeOperationError);
		expect(() => input.onOff(value, 'Filters > Deleted')).toThrow(/^Filters > Deleted: must be true or false, got /);
	});
});
