/**
 * Values that are not text, value by value: a list or an object mapped into a text, number or list field was turned
 * into text by String() (["a", "b"] became "a,b", { a: 1 } "[object Object]") and sent. Every value of the catalogue
 * is refused by `notTextProblem` and by each field reader that takes text, numbers or lists, with a message naming
 * the field and the kind of value. test/security/non-text-values.test.ts runs two of these through every such field.
 */
import fc from 'fast-check';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { commaList, notTextProblem } from '../../nodes/Cloud4Wi/shared/formats';
import { ItemInput } from '../../nodes/Cloud4Wi/shared/input';

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
