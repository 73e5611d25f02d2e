/**
 * The list-entry check, value by value: no entry of a list that is sent as one comma-separated value can become two.
 * Every entry of the catalogue that holds a comma (as typed, %-encoded at any depth, behind a stray "%", or as a
 * look-alike that NFKC maps to ",") is refused by `listEntryProblem`, by `commaList` (as a list entry and as a piece
 * of comma-separated text) and by the field reader naming the field; fine entries are joined. Properties cover the
 * generated classes. test/security/hostile-lists.test.ts runs two of these through every list field.
 */
import fc from 'fast-check';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { commaList } from '../../nodes/Cloud4Wi/shared/formats';
import { ItemInput } from '../../nodes/Cloud4Wi/shared/input';
import { listEntryProblem } from '../../nodes/Cloud4Wi/shared/path';
import { codePoint, encoded, lookAlikes, SAFE } from './generated';

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
