/** No list entry can become two: the check value by value, then every list field through the engine. */
import fc from 'fast-check';
import type { IExecuteFunctions, IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { commaList } from '../../nodes/Cloud4Wi/shared/formats';
import { ItemInput } from '../../nodes/Cloud4Wi/shared/input';
import { listEntryProblem } from '../../nodes/Cloud4Wi/shared/path';
import { codePoint, encoded, lookAlikes, SAFE } from './generated';
import type { TestContext } from '../harness/cloud4wi';
import { LOCATION_REQUIRED, runAction, startCloud4Wi, triggerWorkflow } from '../harness/cloud4wi';
import { buildWorkflow, lastThrownError, pollOnce } from '../harness/engine';

/**
 * The list-entry check, value by value: no entry of a list that is sent as one comma-separated value can become two.
 * Every entry of the catalogue that holds a comma (as typed, %-encoded at any depth, behind a stray "%", or as a
 * look-alike that NFKC maps to ",") is refused by `listEntryProblem`, by `commaList` (as a list entry and as a piece
 * of comma-separated text) and by the field reader naming the field; fine entries are joined. Properties cover the
 * generated classes. The section "every list field" runs two of these through every list field.
 */
describe('the check, value by value', () => {
	const COMMA = 'contains a comma';

	/** Each entry a comma-splitting service (or one that decodes or normalises first) would read as two, and the reading that shows it. */
	const HOSTILE_ENTRIES: Array<[string, string]> = [
		['s1,s2', ''],
		['a,', ''],
		[',a', ''],
		[',', ''],
		['a%2Cb', 'once %-decoded: "a,b"'],
		['a%2cb', 'once %-decoded: "a,b"'],
		['a%252Cb', 'once %-decoded: "a,b"'],
		['a%25252Cb', 'once %-decoded: "a,b"'],
		['a%2Cb%', 'once %-decoded: "a,b%"'],
		['a%2Cb%zz', 'once %-decoded: "a,b%zz"'],
		['a%%32Cb', 'once %-decoded: "a,b"'],
		['%2%63', 'once %-decoded: ","'],
		['a\uff0cb', 'once normalised: "a,b"'],
		['a\ufe50b', 'once normalised: "a,b"'],
		['a%EF%BC%8Cb', 'once %-decoded and normalised: "a,b"'],
		['a%EF%B9%90b', 'once %-decoded and normalised: "a,b"'],
	];
	/** Entries the service takes as they are: "&", "%", ";" and spaces are the query encoder's business. */
	const FINE_ENTRIES = ['c-12', 'late-night', 'late night', 'c&d', '50% off', 'a;b', 'café', 'signup'];

	const input = new ItemInput({ getNode: () => ({ name: 'Cloud4Wi' }) } as IExecuteFunctions, 0);
	function readerError(value: unknown): NodeOperationError | undefined {
		try {
			input.list(value, 'Filters > Tags');
			return undefined;
		} catch (error) {
			return error as NodeOperationError;
		}
	}
	const readingIn = (message: string) => /\((once [^)]*)\)/.exec(message)?.[1] ?? '';

	describe('every entry of the catalogue that holds a comma', () => {
		const rows = HOSTILE_ENTRIES.map(([entry, reading]) => [entry, reading && ` (${reading})`, reading]);
		test.each(rows)('%j contains a comma%s: refused as a list entry and beside a good one', (entry, _, reading) => {
			const problem = listEntryProblem(entry);
			expect(problem).toContain(COMMA);
			expect(readingIn(problem!)).toBe(reading);
			expect(commaList([entry]).problem).toBe(problem);
			expect(commaList(['signup', entry]).problem).toBe(problem);
			const error = readerError(['signup', entry]);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error!.message).toBe(`Filters > Tags: ${problem}`);
		});

		// A literal comma in text only splits it; a hidden one (escaped, look-alike) is refused.
		test.each(HOSTILE_ENTRIES.filter(([entry]) => !entry.includes(',')))(
			'%j as a piece of comma-separated text: refused',
			(entry) => {
				expect(commaList(`signup,${entry}`).problem).toBe(listEntryProblem(entry));
				expect(readerError(`signup, ${entry}`)!.message).toBe(`Filters > Tags: ${listEntryProblem(entry)}`);
			},
		);

		test.each(HOSTILE_ENTRIES.filter(([entry]) => entry.includes(',')))(
			'%j as comma-separated text: split at its commas, as the user wrote it',
			(entry) => {
				expect(commaList(entry)).toEqual({ entries: entry.split(',').filter(Boolean) });
			},
		);

		test('where each entry is sent on its own (custom opt-in titles), a comma is kept', () => {
			expect(commaList(['Club, Gold', 'a%2Cb'], true)).toEqual({ entries: ['Club, Gold', 'a%2Cb'] });
		});
	});

	describe('fine entries', () => {
		test.each(FINE_ENTRIES)('%j: kept as it is', (entry) => {
			expect(listEntryProblem(entry)).toBeUndefined();
			expect(input.list([` ${entry} `, 'x'], 'Filters > Tags')).toEqual([entry, 'x']);
		});
	});

	const RUNS = { numRuns: 300 };
	/** Every code point NFKC maps onto text with a comma. */
	const COMMA_LOOK_ALIKES = lookAlikes((normalised) => normalised.includes(','));

	describe('generated', () => {
		test('a comma between safe text, %-encoded 1 to 3 times: refused, read once decoded', () => {
			fc.assert(
				fc.property(SAFE, SAFE, fc.integer({ min: 1, max: 3 }), fc.boolean(), (a, b, rounds, upper) => {
					const problem = listEntryProblem(a + encoded(',', rounds, upper) + b);
					expect(problem).toContain(`${COMMA} (once %-decoded: "${a},${b}")`);
				}),
				RUNS,
			);
		});

		test(`every code point NFKC maps onto text with a comma (${COMMA_LOOK_ALIKES.length}): refused as typed`, () => {
			expect(COMMA_LOOK_ALIKES).toEqual(expect.arrayContaining(['\uff0c', '\ufe50', '\ufe10']));
			const missed = COMMA_LOOK_ALIKES.filter((char) => !listEntryProblem(`a${char}b`)?.includes(COMMA));
			expect(missed.map(codePoint)).toEqual([]);
		});

		test('a comma look-alike between safe text, %-encoded (UTF-8) once or twice: refused, read once decoded and normalised', () => {
			fc.assert(
				fc.property(
					SAFE,
					fc.constantFrom(...COMMA_LOOK_ALIKES),
					SAFE,
					fc.integer({ min: 1, max: 2 }),
					(a, char, b, rounds) => {
						expect(listEntryProblem(a + encoded(char, rounds) + b)).toContain(
							`${COMMA} (once %-decoded and normalised: `,
						);
					},
				),
				RUNS,
			);
		});

		test('an entry still holding an escape after 3 rounds of decoding: refused as encoded too many times', () => {
			fc.assert(
				fc.property(SAFE, SAFE, fc.integer({ min: 4, max: 8 }), (a, b, rounds) => {
					expect(listEntryProblem(a + encoded(',', rounds) + b)).toContain('is %-encoded too many times');
				}),
				RUNS,
			);
		});

		test('entries without a comma: the same entries whether given as a list or as comma-separated text', () => {
			const entry = fc.stringMatching(/^[A-Za-z0-9 _&;:.-]{0,10}$/);
			fc.assert(
				fc.property(fc.array(entry, { maxLength: 5 }), (entries) => {
					const expected = entries.map((e) => e.trim()).filter(Boolean);
					expect(commaList(entries)).toEqual({ entries: expected });
					expect(commaList(entries.join(','))).toEqual({ entries: expected });
				}),
				RUNS,
			);
		});
	});
});

/**
 * No entry can become two: through every field whose entries are joined into one comma-separated value, an entry that
 * holds a comma (as typed, %-encoded, or as a look-alike that NFKC maps to ",") fails its item (or the poll) with an
 * error naming the field, and the sandbox sees nothing; whether the entry comes in a typed list, in a list mapped from
 * the item beside a good entry, or as a piece of comma-separated text. Two entries per way: the whole catalogue runs
 * against the check itself, above.
 */
describe('every list field', () => {
	/** A comma as typed and one %-encoded: a comma-splitting service (or one that decodes first) reads either as two. */
	const HOSTILE_ENTRIES = ['s1,s2', 'a%2Cb'];
	/** In text, a literal comma only splits it: the hidden ones, %-encoded and a fullwidth look-alike. */
	const HIDDEN_COMMAS = ['a%2Cb', 'a\uff0cb'];

	const rl = (value: string) => ({ __rl: true, mode: 'id', value });

	/** Every field whose entries are joined with ",": operation, where the field sits, its label, and other fields. */
	const FIELDS: Array<[string, string, string, string, string, INodeParameters]> = [
		['contact', 'getAll', 'filters', 'segmentCids', 'Filters > Segment', {}],
		['contact', 'getAll', 'filters', 'locationCids', 'Filters > Location', {}],
		['location', 'getAll', 'filters', 'tags', 'Filters > Tags', {}],
		['event', 'getAll', 'filters', 'events', 'Filters > Event Kinds', {}],
		['event', 'getAllForContact', 'filters', 'events', 'Filters > Event Kinds', { contactId: 'c-1' }],
		// Tags are sent as a JSON list, but a tag with a comma could never be found again by the Get Many tag filter.
		['location', 'create', 'additionalFields', 'tags', 'Tags', LOCATION_REQUIRED],
		['location', 'update', 'updateFields', 'tags', 'Update Fields > Tags', { locationId: rl('l-1') }],
	];

	let ctx: TestContext;
	beforeAll(async () => {
		ctx = await startCloud4Wi({ contacts: 5 });
	});
	afterAll(async () => {
		await ctx.sb.close();
	});
	beforeEach(() => ctx.sb.clearRequests());

	/** The item failed with a NodeOperationError naming `label`, and nothing at all reached the service. */
	function refused(error: unknown, label: string): void {
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message.startsWith(`${label}: `)).toBe(true);
		expect((error as Error).message).toMatch(/contains a comma/);
		expect(ctx.sb.requests).toEqual([]);
	}

	describe.each(FIELDS)('%s %s, %s > %s', (resource, operation, group, field, label, rest) => {
		const params = (value: unknown): INodeParameters => ({
			resource,
			operation,
			returnAll: true,
			...rest,
			[group]: { [field]: value as string[] },
		});

		test.each(HOSTILE_ENTRIES)('a list entry %j: refused, nothing sent', async (entry) => {
			const result = await runAction(ctx, params([entry]));
			expect(result.error).toBeDefined();
			refused(lastThrownError(), label);
		});

		test.each(HOSTILE_ENTRIES)('beside a good entry, mapped from the item %j: refused, nothing sent', async (entry) => {
			await runAction(ctx, params('={{ $json.list }}'), [{ list: ['signup', entry] }]);
			refused(lastThrownError(), label);
		});

		test.each(HIDDEN_COMMAS)('a piece of comma-separated text %j: refused, nothing sent', async (entry) => {
			await runAction(ctx, params('={{ $json.list }}'), [{ list: `signup,${entry}` }]);
			refused(lastThrownError(), label);
		});
	});

	test('with Continue On Fail, an item whose list entry holds a comma is an error item; the others run', async () => {
		const items: IDataObject[] = [{ tags: ['airport'] }, { tags: ['airport,food'] }, { tags: 'airport, food' }];
		const result = await runAction(
			ctx,
			{ resource: 'location', operation: 'getAll', returnAll: true, filters: { tags: '={{ $json.tags }}' } },
			items,
			{ continueOnFail: true },
		);
		const errors = result.items.filter((i) => i.json.error);
		expect(errors.map((i) => i.pairedItem)).toEqual([{ item: 1 }]);
		expect(errors[0].json.error).toMatch(/^Filters > Tags: "airport,food" contains a comma/);
		expect(ctx.sb.requests.filter((r) => r.path.endsWith('/locations')).map((r) => r.query)).toEqual([
			{ tags: 'airport' },
			{ tags: 'airport,food' },
		]);
	});

	describe('fine entries are joined as the service expects', () => {
		const sentQuery = (name: string) =>
			ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login')).map((r) => (r.query as IDataObject)[name]);

		test('segments and locations: a list, or text split at its commas', async () => {
			for (const segmentCids of [['s-1', 's-2'], ' s-1, s-2 ']) {
				ctx.sb.clearRequests();
				await runAction(ctx, { resource: 'contact', operation: 'getAll', limit: 1, filters: { segmentCids } });
				expect(sentQuery('segmentCids')).toEqual(['s-1,s-2']);
			}
		});

		test('tags may hold "&", "%" and spaces, which the query encodes', async () => {
			await runAction(ctx, {
				resource: 'location',
				operation: 'getAll',
				returnAll: true,
				filters: { tags: ['c&d', '50% off', 'late night'] },
			});
			expect(sentQuery('tags')).toEqual(['c&d,50% off,late night']);
		});

		test('event kinds as text from an expression are split, not ignored', async () => {
			await runAction(ctx, { resource: 'event', operation: 'getAll', limit: 1, filters: { events: 'signup, visit' } });
			expect(sentQuery('events')).toEqual(['signup,visit']);
		});
	});

	describe('the trigger', () => {
		const trigger = (parameters: INodeParameters) => buildWorkflow(triggerWorkflow(parameters));
		const lists: Array<[string, string, (value: unknown) => INodeParameters]> = [
			['Events', 'events', (value) => ({ events: value as string[] })],
			[
				'Options > Location Names or IDs',
				'location',
				(value) => ({ events: ['signup'], options: { locationIds: value as string[] } }),
			],
		];

		describe.each(lists)('%s', (label, _, parameters) => {
			test.each(HOSTILE_ENTRIES)('a list entry %j: the poll fails naming the field, nothing sent', async (entry) => {
				for (const mode of ['trigger', 'manual'] as const) {
					const poll = pollOnce(trigger(parameters(['signup', entry])), ctx.store, 'Trigger', mode);
					await expect(poll).rejects.toThrow(new RegExp(`^${label}: .* contains a comma`));
					await expect(poll).rejects.toBeInstanceOf(NodeOperationError);
					expect(ctx.sb.requests).toEqual([]);
				}
			});
		});

		test('event kinds as text from an expression are split (they failed the poll before)', async () => {
			await pollOnce(trigger({ events: 'signup,visit' }), ctx.store, 'Trigger', 'manual').catch(
				() => undefined, // no matching event in the sandbox is fine: the request is what counts
			);
			const events = ctx.sb.requests.filter((r) => r.path.endsWith('/events')).map((r) => r.query.events);
			expect(events.length).toBeGreaterThan(0);
			expect(new Set(events)).toEqual(new Set(['signup,visit']));
		});
	});
});

/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
describe('listEntryProblem', () => {
	test.each([
		['a,b', 'contains a comma, which would make it two entries'],
		['a%2Cb', '(once %-decoded: "a,b")'],
		['a%252cb', '(once %-decoded: "a,b")'],
		['a%2Cb%', '(once %-decoded: "a,b%")'],
		['a%%32Cb', '(once %-decoded: "a,b")'],
		['a\uff0cb', '(once normalised: "a,b")'],
		['a\ufe50b', '(once normalised: "a,b")'],
		['a%EF%BC%8Cb', '(once %-decoded and normalised: "a,b")'],
	])('%p: %s', (value, problem) => {
		expect(listEntryProblem(value)).toContain(problem);
	});
	test.each(['c-12', 'late-night', 'c&d', '50% off', 'a;b', 'café'])('%p is fine', (value) => {
		expect(listEntryProblem(value)).toBeUndefined();
	});
});

/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
describe('commaList', () => {
	test('a text is split at its commas; a list is taken entry by entry; blanks are dropped', () => {
		expect(commaList(' s1, s2 ,,')).toEqual({ entries: ['s1', 's2'] });
		expect(commaList([' s1 ', '', null, 's2'])).toEqual({ entries: ['s1', 's2'] });
		expect(commaList(undefined)).toEqual({ entries: [] });
	});
	test('a list or an object as an entry, or an object for the whole list, is refused (String() made "a,b" of it)', () => {
		expect(commaList(['s1', ['s2', 's3']]).problem).toBe('has an entry that is a list, not text or a number');
		expect(commaList([{ id: 's1' }]).problem).toBe('has an entry that is an object, not text or a number');
		expect(commaList({ id: 's1' }).problem).toBe('has an entry that is an object, not text or a number');
		expect(commaList(['s1', 2])).toEqual({ entries: ['s1', '2'] });
	});
	test('a list entry holding a comma, or a text piece holding an encoded one, is refused', () => {
		expect(commaList(['s1,s2']).problem).toMatch(/^"s1,s2" contains a comma/);
		expect(commaList('s1,a%2Cb').problem).toMatch(/^"a%2Cb" contains a comma/);
	});
});
