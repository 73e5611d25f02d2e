/**
 * The on/off reading, value by value: mapped data gives text ("false" from a sheet, a form or JSON text), and
 * Boolean("false") is true. Every spelling of the catalogue is read by `onOffOf` as what it says, and anything unclear
 * is refused with a message that shows it. test/security/on-off-fields.test.ts runs two of these through every field.
 */
import fc from 'fast-check';

import { notOnOffProblem, onOffOf } from '../../nodes/Cloud4Wi/shared/formats';

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
