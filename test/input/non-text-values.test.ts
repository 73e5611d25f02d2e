/** A list or an object mapped into a text, number or list field is refused: by the readers, then through every such field. */
import fc from 'fast-check';
import type { IExecuteFunctions, IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { commaList, notTextProblem } from '../../nodes/Cloud4Wi/shared/formats';
import { ItemInput } from '../../nodes/Cloud4Wi/shared/input';
import type { TestContext } from '../harness/cloud4wi';
import { LOCATION_REQUIRED, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { lastThrownError } from '../harness/engine';

/**
 * Values that are not text, value by value: a list or an object mapped into a text, number or list field was turned
 * into text by String() (["a", "b"] became "a,b", { a: 1 } "[object Object]") and sent. Every value of the catalogue
 * is refused by `notTextProblem` and by each field reader that takes text, numbers or lists, with a message naming
 * the field and the kind of value. The section "every such field" runs
 * two of these through every such field.
 */
describe('the readers, value by value', () => {
	const NOT_TEXT: unknown[] = [['a', 'b'], ['IT'], [], { name: 'a' }, {}];
	/** Number fields: Number(["7"]) is 7, so a list was read as its one entry. */
	const NOT_A_NUMBER: unknown[] = [['7'], [7], { value: 7 }];
	/** List fields: an entry that is itself a list or an object, or an object for the whole list. */
	const ODD_LISTS: unknown[] = [
		['signup', ['visit']],
		[{ kind: 'signup' }],
		{ kind: 'signup' },
		['s-1', ['s-2']],
		[{ cid: 's-1' }],
		{ cid: 's-1' },
	];
	const kindOf = (value: unknown) => (Array.isArray(value) ? 'a list' : 'an object');

	const input = new ItemInput({ getNode: () => ({ name: 'Cloud4Wi' }) } as IExecuteFunctions, 0);
	/** Every reader a text field goes through, each given the value for a field labelled "Field". */
	const TEXT_READERS: Array<[string, (value: unknown) => unknown]> = [
		['text', (v) => input.text(v, 'Field')],
		['id', (v) => input.id('field', 'Field', v)],
		['required', (v) => input.required(v, 'Field')],
		['oneOf', (v) => input.oneOf(v, 'Field', ['a'])],
		['country', (v) => input.country(v, 'Field')],
		['timezone', (v) => input.timezone(v, 'Field')],
		['phone', (v) => input.phone(v, 'Field')],
		['macAddress', (v) => input.macAddress(v, 'Field')],
		['dateOnly', (v) => input.dateOnly(v, 'Field')],
	];
	const NUMBER_READERS: Array<[string, (value: unknown) => unknown, string]> = [
		['size', (v) => input.size(v, 'Field'), 'must be a whole number from 1 to 10000'],
		['coordinate (latitude)', (v) => input.coordinate(v, 'Field', 90), 'must be a number from -90 to 90'],
		['coordinate (longitude)', (v) => input.coordinate(v, 'Field', 180), 'must be a number from -180 to 180'],
	];

	function thrown(read: () => unknown): NodeOperationError {
		try {
			read();
		} catch (error) {
			return error as NodeOperationError;
		}
		throw new Error('the reader took the value');
	}

	describe.each(NOT_TEXT)('%j in a text field', (value) => {
		test('is not text', () => {
			expect(notTextProblem(value)).toBe(`must be text or a number, got ${kindOf(value)}`);
		});
		test.each(TEXT_READERS)('the %s reader refuses it, naming the field', (_, read) => {
			const error = thrown(() => read(value));
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(`Field: must be text or a number, got ${kindOf(value)}`);
		});
	});

	describe.each(NUMBER_READERS)('a number field (%s)', (_, read, rule) => {
		test.each(NOT_A_NUMBER)('%j: refused, naming the field and the kind', (value) => {
			expect(thrown(() => read(value)).message).toBe(`Field: ${rule}, got ${kindOf(value)}`);
		});
		test('a number as text is read', () => {
			expect(read(' 7 ')).toBe(7);
		});
	});

	test.each(ODD_LISTS)('%j in a list field: refused, naming the odd entry', (value) => {
		const entry = Array.isArray(value) ? value[value.length - 1] : value;
		const problem = `has an entry that is ${kindOf(entry)}, not text or a number`;
		expect(commaList(value).problem).toBe(problem);
		expect(thrown(() => input.list(value, 'Field')).message).toBe(`Field: ${problem}`);
	});

	const RUNS = { numRuns: 300 };
	describe('generated', () => {
		const listOrObject = fc.oneof(fc.array(fc.anything(), { maxLength: 3 }), fc.object({ maxDepth: 1 }));

		test('any list or object: refused in a text field, named by its kind', () => {
			fc.assert(
				fc.property(listOrObject, (value) => {
					expect(thrown(() => input.text(value, 'Field')).message).toBe(
						`Field: must be text or a number, got ${kindOf(value)}`,
					);
				}),
				RUNS,
			);
		});

		test('any text or number: read as its text', () => {
			fc.assert(
				fc.property(fc.oneof(fc.string(), fc.double(), fc.integer()), (value) => {
					expect(notTextProblem(value)).toBeUndefined();
					expect(input.text(value, 'Field')).toBe(String(value));
				}),
				RUNS,
			);
		});

		test('a list with a list or an object anywhere among its entries: refused', () => {
			fc.assert(
				fc.property(
					fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
					listOrObject,
					fc.nat(3),
					(entries, odd, at) => {
						const list: unknown[] = [...entries];
						list.splice(at, 0, odd);
						expect(commaList(list).problem).toBe(`has an entry that is ${kindOf(odd)}, not text or a number`);
					},
				),
				RUNS,
			);
		});

		test('a list or an object in a number field: refused, however it would convert', () => {
			fc.assert(
				fc.property(
					fc.oneof(
						fc.array(fc.integer({ min: 1, max: 90 }), { maxLength: 2 }),
						fc.array(fc.integer({ min: 1, max: 90 }).map(String), { maxLength: 2 }),
					),
					(value) => {
						for (const [, read] of NUMBER_READERS) expect(() => read(value)).toThrow(/, got a list$/);
					},
				),
				RUNS,
			);
		});
	});
});

/**
 * A list or an object mapped into a text, number or list field was turned into text by String(): ["a", "b"] became
 * "a,b" and { a: 1 } "[object Object]", and either was sent. Through every such field of every operation, a list and
 * an object each fail their item with an error naming the field, and the sandbox sees nothing. Every value of the
 * catalogue runs through the field readers themselves, above.
 */
describe('every such field', () => {
	/** A list and an object: String() made "a,b" and "[object Object]" of them. */
	const NOT_TEXT: unknown[] = [['a', 'b'], { name: 'a' }];
	const kindOf = (value: unknown) => (Array.isArray(value) ? 'a list' : 'an object');

	const MAPPED = '={{ $json.v }}';
	const rl = (value: string) => ({ __rl: true, mode: 'id', value });
	const HOTSPOT = { name: 'Lobby AP', routerType: 'meraki', latitude: 45.4642, longitude: 9.19, locationId: rl('l-1') };
	const OWN_ADDRESS = {
		addressAsLocation: false,
		country: 'IT',
		address: 'Via Roma 1',
		city: 'Milan',
		state: 'MI',
		zip: '1',
	};

	/** Operation, the field's label, and the node's parameters with the field mapped. */
	type Row = [string, string, string, (v: string) => INodeParameters];

	const contactFilters: Array<[string, string]> = [
		['email', 'Email'],
		['username', 'Username'],
		['extId', 'External ID'],
		['extProp1', 'External Property 1'],
		['extProp2', 'External Property 2'],
		['signupMethods', 'Signup Method'],
		['phoneNumber', 'Phone Number'],
		['sortBy', 'Sort By'],
	];
	const address: Array<[string, string]> = [
		['country', 'Country Code'],
		['address', 'Address'],
		['city', 'City'],
		['state', 'State'],
		['zip', 'ZIP Code'],
	];
	const locationRequired: Array<[string, string]> = [
		['name', 'Name'],
		['timezone', 'Time Zone'],
		...address,
		['loginProfileId', 'Login Profile ID'],
		['locationProfileId', 'Location Profile ID'],
		['welcomePortalId', 'Welcome Portal ID'],
	];
	const locationOptional: Array<[string, string]> = [
		['description', 'Description'],
		['externalId', 'External ID'],
		['categoryName', 'Category'],
	];

	const TEXT: Row[] = [
		...contactFilters.map(
			([name, label]): Row => [
				'contact getAll',
				`Filters > ${label}`,
				'',
				(v) => ({ resource: 'contact', operation: 'getAll', limit: 1, filters: { [name]: v } }),
			],
		),
		[
			'contact updateOptIns',
			'Opt-Ins > Opt-In',
			'',
			(v) => ({ resource: 'contact', operation: 'updateOptIns', contactId: 'c-1', optIns: { optIn: [{ policy: v }] } }),
		],
		[
			'contact updateOptIns',
			'Opt-Ins > Custom Opt-In Title',
			'',
			(v) => ({
				resource: 'contact',
				operation: 'updateOptIns',
				contactId: 'c-1',
				optIns: { optIn: [{ policy: 'custom', customTitle: v }] },
			}),
		],
		...['getAll', 'getAllForContact'].map(
			(operation): Row => [
				`event ${operation}`,
				'Filters > Sort By',
				'',
				(v) => ({ resource: 'event', operation, contactId: 'c-1', limit: 1, filters: { sortBy: v } }),
			],
		),
		...[
			['name', 'Name'],
			['routerType', 'Router Type'],
			['macAddress', 'MAC Address'],
		].map(
			([name, label]): Row => [
				'hotspot create',
				label,
				'',
				(v) => ({ resource: 'hotspot', operation: 'create', ...HOTSPOT, [name]: v }),
			],
		),
		...address.map(
			([name, label]): Row => [
				'hotspot create (own address)',
				label,
				'',
				(v) => ({ resource: 'hotspot', operation: 'create', ...HOTSPOT, ...OWN_ADDRESS, [name]: v }),
			],
		),
		...[
			['description', 'Description'],
			['hotspotIdentifier', 'Hotspot Identifier'],
			['ssid', 'SSID'],
		].map(
			([name, label]): Row => [
				'hotspot create',
				`Additional Fields > ${label}`,
				'',
				(v) => ({ resource: 'hotspot', operation: 'create', ...HOTSPOT, additionalFields: { [name]: v } }),
			],
		),
		...[['name', 'Name'], ['description', 'Description'], ...address].map(
			([name, label]): Row => [
				'hotspot update',
				`Update Fields > ${label}`,
				'',
				(v) => ({ resource: 'hotspot', operation: 'update', hotspotId: rl('h-1'), updateFields: { [name]: v } }),
			],
		),
		[
			'hotspot update',
			'Location',
			'',
			(v) => ({ resource: 'hotspot', operation: 'update', hotspotId: rl('h-1'), locationId: v, updateFields: {} }),
		],
		...[
			['creationDateStart', 'Created After'],
			['creationDateStop', 'Created Before'],
			['name', 'Name'],
			['macAddress', 'MAC Address'],
			['hotspotIdentifier', 'Hotspot Identifier'],
		].map(
			([name, label]): Row => [
				'hotspot getAll',
				`Filters > ${label}`,
				'',
				(v) => ({ resource: 'hotspot', operation: 'getAll', limit: 1, filters: { [name]: v } }),
			],
		),
		...locationRequired.map(
			([name, label]): Row => [
				'location create',
				label,
				'',
				(v) => ({ resource: 'location', operation: 'create', ...LOCATION_REQUIRED, [name]: v }),
			],
		),
		...[...locationOptional, ['organizationPlanId', 'Organization Plan ID']].map(
			([name, label]): Row => [
				'location create',
				label,
				'',
				(v) => ({ resource: 'location', operation: 'create', ...LOCATION_REQUIRED, additionalFields: { [name]: v } }),
			],
		),
		...[...locationOptional, ['name', 'Name'], ['timezone', 'Time Zone'], ...address].map(
			([name, label]): Row => [
				'location update',
				`Update Fields > ${label}`,
				'',
				(v) => ({ resource: 'location', operation: 'update', locationId: rl('l-1'), updateFields: { [name]: v } }),
			],
		),
		[
			'wifiConnection getAll',
			'Filters > Time Zone',
			'',
			(v) => ({ resource: 'wifiConnection', operation: 'getAll', limit: 1, filters: { timeZone: v } }),
		],
	];

	/** Number fields: Number(["7"]) is 7, so a list was read as its one entry. */
	const NUMBERS: Row[] = [
		[
			'segment getAll',
			'Limit',
			'must be a whole number from 1 to 10000',
			(v) => ({ resource: 'segment', operation: 'getAll', limit: v }),
		],
		[
			'hotspot create',
			'Latitude',
			'must be a number from -90 to 90',
			(v) => ({ resource: 'hotspot', operation: 'create', ...HOTSPOT, latitude: v }),
		],
		[
			'hotspot create',
			'Longitude',
			'must be a number from -180 to 180',
			(v) => ({ resource: 'hotspot', operation: 'create', ...HOTSPOT, longitude: v }),
		],
		[
			'hotspot update',
			'Update Fields > Latitude',
			'must be a number from -90 to 90',
			(v) => ({ resource: 'hotspot', operation: 'update', hotspotId: rl('h-1'), updateFields: { latitude: v } }),
		],
		[
			'hotspot update',
			'Update Fields > Longitude',
			'must be a number from -180 to 180',
			(v) => ({ resource: 'hotspot', operation: 'update', hotspotId: rl('h-1'), updateFields: { longitude: v } }),
		],
	];

	/** List fields: an entry that is itself a list or an object. */
	const LISTS: Row[] = [
		[
			'contact getAll',
			'Filters > Segment',
			'',
			(v) => ({ resource: 'contact', operation: 'getAll', limit: 1, filters: { segmentCids: v } }),
		],
		[
			'contact getAll',
			'Filters > Custom Opt-Ins Accepted',
			'',
			(v) => ({ resource: 'contact', operation: 'getAll', limit: 1, filters: { customOptIns: v } }),
		],
		[
			'location getAll',
			'Filters > Tags',
			'',
			(v) => ({ resource: 'location', operation: 'getAll', filters: { tags: v } }),
		],
		[
			'event getAll',
			'Filters > Event Kinds',
			'',
			(v) => ({ resource: 'event', operation: 'getAll', limit: 1, filters: { events: v } }),
		],
		[
			'location create',
			'Tags',
			'',
			(v) => ({ resource: 'location', operation: 'create', ...LOCATION_REQUIRED, additionalFields: { tags: v } }),
		],
		[
			'location update',
			'Update Fields > Tags',
			'',
			(v) => ({ resource: 'location', operation: 'update', locationId: rl('l-1'), updateFields: { tags: v } }),
		],
	];

	let ctx: TestContext;
	beforeAll(async () => {
		ctx = await startCloud4Wi({ contacts: 5 });
	});
	afterAll(async () => {
		await ctx.sb.close();
	});
	beforeEach(() => ctx.sb.clearRequests());

	async function expectRefused(params: INodeParameters, value: unknown, message: string) {
		const result = await runAction(ctx, params, [{ v: value as IDataObject }]);
		expect(result.error).toBeDefined();
		const error = lastThrownError();
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe(message);
		expect(ctx.sb.requests).toEqual([]);
	}

	describe.each(TEXT)('%s, %s', (_, label, __, params) => {
		test.each(NOT_TEXT)('mapped %j: refused naming the field, nothing sent', async (value) => {
			await expectRefused(params(MAPPED), value, `${label}: must be text or a number, got ${kindOf(value)}`);
		});
	});

	describe.each(NUMBERS)('%s, %s', (_, label, rule, params) => {
		test.each([[['7']], [{ value: 7 }]])('mapped %j: refused naming the field, nothing sent', async (value) => {
			await expectRefused(params(MAPPED), value, `${label}: ${rule}, got ${kindOf(value)}`);
		});
	});

	describe.each(LISTS)('%s, %s', (_, label, __, params) => {
		test.each([[['signup', ['visit']]], [{ kind: 'signup' }]])(
			'mapped %j: refused naming the field, nothing sent',
			async (value) => {
				const entry = Array.isArray(value) ? value[value.length - 1] : value;
				await expectRefused(
					params(MAPPED),
					value,
					`${label}: has an entry that is ${kindOf(entry)}, not text or a number`,
				);
			},
		);
	});

	test('fine values beside them still go through: text, a number as text, a one-word list', async () => {
		const result = await runAction(
			ctx,
			{
				resource: 'contact',
				operation: 'getAll',
				limit: 1,
				filters: { extId: MAPPED, email: 'a@b.co', segmentCids: ['s-1'] },
			},
			[{ v: 42 }],
		);
		expect(result.error).toBeUndefined();
		const sent = ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login')).map((r) => r.query);
		expect(sent).toEqual([expect.objectContaining({ extId: '42', email: 'a@b.co', segmentCids: 's-1' })]);
	});
});

/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
describe('ItemInput readers', () => {
	const input = new ItemInput({ getNode: () => ({ name: 'Cloud4Wi' }) } as IExecuteFunctions, 0);
	test('text: a list or an object is refused; text, numbers and nothing are read', () => {
		expect(() => input.text(['a', 'b'], 'Name')).toThrow('Name: must be text or a number, got a list');
		expect(() => input.text({ a: 1 }, 'Name')).toThrow('Name: must be text or a number, got an object');
		expect(input.text(' a ', 'Name')).toBe(' a ');
		expect(input.text(12, 'Name')).toBe('12');
		expect(input.text(undefined, 'Name')).toBe('');
	});
});
