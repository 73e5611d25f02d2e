/**
 * The path-id check, value by value: every hostile id of the catalogue is refused by `pathIdProblem` with the problem
 * that names its class, and by the field reader (`ItemInput.id`) naming the field; ids Cloud4Wi or a user really has
 * pass and land, encoded, in one path segment. Properties cover the generated classes: %-encoding at any depth,
 * look-alikes, control characters. test/security/hostile-ids.test.ts runs two of these through every field.
 */
import fc from 'fast-check';
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { notTextProblem, organizationIdOf } from '../../nodes/Cloud4Wi/shared/formats';
import { ItemInput } from '../../nodes/Cloud4Wi/shared/input';
import type { PathId } from '../../nodes/Cloud4Wi/shared/path';
import { apiPath, pathIdProblem } from '../../nodes/Cloud4Wi/shared/path';
import { codePoint, encoded, lookAlikes, SAFE } from './generated';

// What each class of problem says: the message is the user's only clue to what was wrong.
const DOT = 'is a dot segment';
const ROUTE = 'contains "/", "\\", "?" or "#"';
const CONTROL = 'contains a control character';
const EMPTY = 'is empty';
const BAD_ESCAPE = 'has a "%" not followed by two hex digits';
const NOT_UTF8 = 'has %-escapes that do not decode to text';
const SURROGATE = 'contains broken text (a lone UTF-16 surrogate)';
const LOOK_ALIKE = 'a look-alike of "/", "\\" or "."';
const MATRIX = 'contains ";"';
const COMMA = 'contains a comma';
const TOO_DEEP = 'is %-encoded too many times';

/**
 * The catalogue: each hostile id, the class its problem names, and the reading of it that shows the problem (as
 * typed when empty). Dot segments, separators, escapes that decode to them (at any depth), controls, nothing at all;
 * then escapes that do not decode (which a lenient proxy reads anyhow), look-alikes a server normalises onto route
 * characters, ";" and ",".
 */
const HOSTILE: Array<[string, string, string]> = [
	['.', DOT, ''],
	['..', DOT, ''],
	[' .. ', DOT, ''],
	['%2e', DOT, 'once %-decoded: "."'],
	['%2e%2e', DOT, 'once %-decoded: ".."'],
	['.%2E', DOT, 'once %-decoded: ".."'],
	['%2E%2e', DOT, 'once %-decoded: ".."'],
	['%252e%252e', DOT, 'once %-decoded: ".."'],
	['a/b', ROUTE, ''],
	['../x', ROUTE, ''],
	['..\\x', ROUTE, ''],
	['a\\b', ROUTE, ''],
	['a?b', ROUTE, ''],
	['a?x=1', ROUTE, ''],
	['a#b', ROUTE, ''],
	['a%2Fb', ROUTE, 'once %-decoded: "a/b"'],
	['a%2fb', ROUTE, 'once %-decoded: "a/b"'],
	['a%252Fb', ROUTE, 'once %-decoded: "a/b"'],
	['a%25252Fb', ROUTE, 'once %-decoded: "a/b"'],
	['a%5Cb', ROUTE, 'once %-decoded: "a\\\\b"'],
	['a%3Fb', ROUTE, 'once %-decoded: "a?b"'],
	['a%23b', ROUTE, 'once %-decoded: "a#b"'],
	['a\nb', CONTROL, ''],
	['a\r\nb', CONTROL, ''],
	['a\tb', CONTROL, ''],
	['a\u0000b', CONTROL, ''],
	['a%00b', CONTROL, 'once %-decoded'],
	['a%0ab', CONTROL, 'once %-decoded'],
	['a\u007fb', CONTROL, ''],
	['a\u0085b', CONTROL, ''],
	['a\u2028b', CONTROL, ''],
	['', EMPTY, ''],
	['   ', EMPTY, ''],
	// A "%" that starts no escape, at any layer: the rest was never checked before.
	['a%2Fb%', BAD_ESCAPE, ''],
	['..%2F..%2Fsts%2Flogout%c0', NOT_UTF8, ''],
	['..%2F..%2Fv1%2Fsts%2Flogout%', BAD_ESCAPE, ''],
	['%2e%2e%', BAD_ESCAPE, ''],
	['x%252F%zz', BAD_ESCAPE, ''],
	['100%', BAD_ESCAPE, ''],
	['%zz', BAD_ESCAPE, ''],
	['a%25zz', BAD_ESCAPE, 'once %-decoded: "a%zz"'],
	['%%32%65%%32%65', BAD_ESCAPE, ''],
	// Escapes that are not UTF-8: overlong "/" and "..", an encoded lone surrogate; and a lone surrogate as typed.
	['a%c0%afb', NOT_UTF8, ''],
	['%c0%ae%c0%ae', NOT_UTF8, ''],
	['a%ed%a0%80b', NOT_UTF8, ''],
	['a\ud800b', SURROGATE, ''],
	// Look-alikes that NFKC maps onto "/", ".", "?", "#", "\\", or that it leaves alone but look the same.
	['a\uff0fb', ROUTE, 'once normalised: "a/b"'],
	['\uff0e\uff0e', DOT, 'once normalised: ".."'],
	['a\uff1fb', ROUTE, 'once normalised: "a?b"'],
	['a\uff03b', ROUTE, 'once normalised: "a#b"'],
	['a\uff3cb', ROUTE, 'once normalised: "a\\\\b"'],
	['a\ufe68b', ROUTE, 'once normalised: "a\\\\b"'],
	['\u2024\u2024', DOT, 'once normalised: ".."'],
	['\ufe52\ufe52', DOT, 'once normalised: ".."'],
	['\u2025', DOT, 'once normalised: ".."'],
	['a%EF%BC%8Fb', ROUTE, 'once %-decoded and normalised: "a/b"'],
	['a\uff052Fb', ROUTE, 'once %-decoded and normalised: "a/b"'],
	['a\u2215b', LOOK_ALIKE, ''],
	['a\u2044b', LOOK_ALIKE, ''],
	['a\u29f8b', LOOK_ALIKE, ''],
	['a\u2216b', LOOK_ALIKE, ''],
	['a\u3002b', LOOK_ALIKE, ''],
	// Matrix parameters, as typed, escaped and as a look-alike.
	['a;v=1', MATRIX, ''],
	['a%3Bv=1', MATRIX, 'once %-decoded: "a;v=1"'],
	['a%253Bb', MATRIX, 'once %-decoded: "a;b"'],
	['a\uff1bv=1', MATRIX, 'once normalised: "a;v=1"'],
	// Commas: a server that takes several ids in one segment (a,b) would act on two records.
	['a,b', COMMA, ''],
	['a,', COMMA, ''],
	[',a', COMMA, ''],
	['a%2Cb', COMMA, 'once %-decoded: "a,b"'],
	['a%2cb', COMMA, 'once %-decoded: "a,b"'],
	['a%252Cb', COMMA, 'once %-decoded: "a,b"'],
	['a\uff0cb', COMMA, 'once normalised: "a,b"'],
	['a%EF%BC%8Cb', COMMA, 'once %-decoded and normalised: "a,b"'],
	// Escaped once more than the check decodes.
	['a%2525252Fb', TOO_DEEP, ''],
];

/** Values mapped from the item that are not one id: String() made "c-1,c-2" or "[object Object]" of them. */
const NOT_ONE_ID: unknown[] = [['c-1', 'c-2'], ['c-1'], [], [['c-1']], { cid: 'c-1' }, {}, [{ cid: 'c-1' }]];

/** Ids Cloud4Wi or a user may really have (a contact id, an ObjectId, a uuid, an email...): each passes. */
const LEGIT = [
	'c-12',
	'5f3c9a0e1b2d4c6e8f0a1b2c',
	'5f3c9a0e-1b2d-4c6e-8f0a-1b2c3d4e5f60',
	'a_b',
	'A_B-C.D',
	'a:b',
	'user@example.com',
	'a.b',
	'...',
	'a b',
	'a%20b',
	'café',
	'Ünïcödé',
	'東京',
	'\ufb01le',
	'12345',
];

const input = new ItemInput({ getNode: () => ({ name: 'Cloud4Wi' }) } as IExecuteFunctions, 0);
/** What the field reader throws for `value` in the Contact ID field, or undefined when it takes it. */
function readerError(value: unknown): NodeOperationError | undefined {
	try {
		input.id('contactId', 'Contact ID', value);
		return undefined;
	} catch (error) {
		return error as NodeOperationError;
	}
}
/** The reading a message names: ` (once %-decoded: "..")` without its parentheses, or '' for the value as typed. */
const readingIn = (message: string) =>
	/\((once [^)]*)\)/.exec(message)?.[1] ?? (/ once %-decoded$/.test(message) ? 'once %-decoded' : '');

describe('every hostile id of the catalogue', () => {
	const rows = HOSTILE.map(([value, problemClass, reading]) => [
		value,
		problemClass,
		reading && ` (${reading})`,
		reading,
	]);
	test.each(rows)('%j %s%s: refused', (value, problemClass, _, reading) => {
		// The field reader trims what was typed; the checker sees the rest.
		const problem = pathIdProblem(value.trim());
		expect(problem).toContain(problemClass);
		expect(readingIn(problem!)).toBe(reading);
		const error = readerError(value);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe(`Contact ID: ${problem}`);
		// A caller that skipped the check still cannot build the path.
		expect(() => apiPath`/v2/customers/${value as PathId}`).toThrow('Refused to build a Cloud4Wi path');
	});

	test.each(HOSTILE.filter(([value]) => value.trim()))(
		'%j as the credential’s default organization: refused the same, named as the default',
		(value) => {
			const org = organizationIdOf('', { organizationId: value });
			expect(org).toEqual({ id: value.trim(), label: 'Organization ID (the credential’s default)' });
			expect(pathIdProblem(org.id)).toBeDefined();
		},
	);

	test('an empty id asks for one', () => {
		expect(readerError('  ')!.description).toBe('Enter the Contact ID or map it from an earlier node.');
	});
});

describe('values that are not one id', () => {
	test.each(NOT_ONE_ID)('%j: refused, named by its kind', (value) => {
		const kind = Array.isArray(value) ? 'a list' : 'an object';
		expect(notTextProblem(value)).toBe(`must be text or a number, got ${kind}`);
		expect(readerError(value)!.message).toBe(`Contact ID: must be text or a number, got ${kind}`);
	});

	test('a number is read as its digits', () => {
		expect(input.id('contactId', 'Contact ID', 12345)).toBe('12345');
	});
});

describe('ids Cloud4Wi or a user may really have', () => {
	test.each(LEGIT)('%j: taken, and sent encoded in its own path segment', (value) => {
		expect(pathIdProblem(value)).toBeUndefined();
		const id = input.id('contactId', 'Contact ID', `  ${value}  `);
		expect(id).toBe(value);
		expect(apiPath`/v2/customers/${id}/otp`).toBe(`/v2/customers/${encodeURIComponent(value)}/otp`);
	});
});

/** Generated values: each property runs a bounded number of cases, so the file stays fast. */
const RUNS = { numRuns: 300 };
/** How a message quotes a reading. */
const quoted = (text: string) => JSON.stringify(text).slice(1, -1);

/** Every code point NFKC maps onto text holding a route character, ";" or ",", or onto "." or ".." alone. */
const NFKC_ROUTE = lookAlikes((normalised) => /[/\\?#;,]/.test(normalised));
const NFKC_DOTS = lookAlikes((normalised) => normalised === '.' || normalised === '..');
/** The class a text with a route character, ";" or "," is refused as: the checker looks in this order. */
const classOf = (text: string) => (/[/\\?#]/.test(text) ? ROUTE : text.includes(';') ? MATRIX : COMMA);

describe('generated: %-encoding at any depth', () => {
	test('a route character, ";" or "," between safe text, %-encoded 1 to 3 times: refused, read once decoded', () => {
		fc.assert(
			fc.property(
				SAFE,
				fc.constantFrom('/', '\\', '?', '#', ';', ','),
				SAFE,
				fc.integer({ min: 1, max: 3 }),
				fc.boolean(),
				(a, char, b, rounds, upper) => {
					const problem = pathIdProblem(a + encoded(char, rounds, upper) + b);
					expect(problem).toContain(classOf(char));
					expect(problem).toContain(`(once %-decoded: "${quoted(a + char + b)}")`);
				},
			),
			RUNS,
		);
	});

	test('a dot segment whose dots are each typed or %-encoded 1 to 3 times, maybe padded with encoded spaces: refused', () => {
		const dot = fc
			.tuple(fc.integer({ min: 0, max: 3 }), fc.boolean())
			.map(([rounds, upper]) => encoded('.', rounds, upper));
		const pad = fc.oneof(
			fc.constant(''),
			fc
				.tuple(fc.constantFrom(' ', '\u00a0', '\u3000'), fc.integer({ min: 1, max: 2 }))
				.map(([space, rounds]) => encoded(space, rounds)),
		);
		fc.assert(
			fc.property(fc.array(dot, { minLength: 1, maxLength: 2 }), pad, pad, (dots, before, after) => {
				expect(pathIdProblem(before + dots.join('') + after)).toContain(DOT);
			}),
			RUNS,
		);
	});

	test('anything still holding an escape after 3 rounds of decoding: refused as encoded too many times', () => {
		fc.assert(
			fc.property(
				SAFE,
				fc.constantFrom('/', '.', 'x', '\n'),
				SAFE,
				fc.integer({ min: 4, max: 8 }),
				(a, char, b, rounds) => {
					expect(pathIdProblem(a + encoded(char, rounds) + b)).toContain(TOO_DEEP);
				},
			),
			RUNS,
		);
	});
});

describe('generated: look-alikes', () => {
	test(`every code point NFKC maps onto a route character, ";" or "," (${NFKC_ROUTE.length}) or a dot segment (${NFKC_DOTS.length}) is refused`, () => {
		expect(NFKC_ROUTE).toEqual(expect.arrayContaining(['\uff0f', '\uff3c', '\uff1f', '\uff03', '\uff1b', '\uff0c']));
		const missed = [
			...NFKC_ROUTE.filter((char) => !pathIdProblem(`a${char}b`)?.includes(classOf(`a${char}b`.normalize('NFKC')))),
			...NFKC_DOTS.filter((char) => !pathIdProblem(char)?.includes(DOT)),
		];
		expect(missed.map(codePoint)).toEqual([]);
	});

	test('a look-alike between safe text, as typed or %-encoded (UTF-8) once or twice: refused, read once normalised', () => {
		fc.assert(
			fc.property(SAFE, fc.constantFrom(...NFKC_ROUTE), SAFE, fc.integer({ min: 0, max: 2 }), (a, char, b, rounds) => {
				const problem = pathIdProblem(a + encoded(char, rounds) + b);
				expect(problem).toContain(classOf((a + char + b).normalize('NFKC')));
				expect(problem).toMatch(/\(once (%-decoded and )?normalised: /);
			}),
			RUNS,
		);
	});

	test('dot look-alikes, mixed with plain dots, making "." or "..": refused as a dot segment', () => {
		const dotLike = fc.constantFrom('.', ...NFKC_DOTS);
		fc.assert(
			fc.property(fc.array(dotLike, { minLength: 1, maxLength: 2 }), (parts) => {
				const text = parts.join('');
				fc.pre(['.', '..'].includes(text.normalize('NFKC')));
				expect(pathIdProblem(text)).toContain(DOT);
			}),
			RUNS,
		);
	});

	test('an escape of a route character with some of its characters fullwidth ("％2Ｆ"): refused', () => {
		const fullwidth = (char: string) => String.fromCharCode(char.charCodeAt(0) + 0xfee0);
		fc.assert(
			fc.property(
				SAFE,
				fc.constantFrom('%2F', '%2f', '%5C', '%3F', '%23'),
				fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
				SAFE,
				(a, escape, wide, b) => {
					const typed = [...escape].map((char, i) => (wide[i] ? fullwidth(char) : char)).join('');
					fc.pre(typed !== escape);
					// A plain "%" before a fullwidth digit starts no escape as typed; a fullwidth "%" is one once normalised.
					expect(pathIdProblem(a + typed + b)).toContain(wide[0] ? ROUTE : BAD_ESCAPE);
				},
			),
			RUNS,
		);
	});

	test.each([
		'\u2215',
		'\u2044',
		'\u29f8',
		'\u2571',
		'\u27cb',
		'\u2216',
		'\u29f5',
		'\u29f9',
		'\u2572',
		'\u27cd',
		'\u00a5',
		'\u20a9',
		'\u3002',
	])('%j, a look-alike NFKC leaves alone, between safe text: refused by its code point', (char) => {
		fc.assert(
			fc.property(SAFE, SAFE, (a, b) => {
				const problem = pathIdProblem(a + char + b);
				expect(problem).toContain(LOOK_ALIKE);
				expect(problem).toContain(codePoint(char));
			}),
			{ numRuns: 20 },
		);
	});
});

describe('generated: control characters', () => {
	const controls = fc
		.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }), fc.constantFrom(0x2028, 0x2029))
		.map((cp) => String.fromCharCode(cp));

	test('a C0, DEL, C1 or line separator inside an id, as typed: refused', () => {
		fc.assert(
			fc.property(SAFE, controls, SAFE, (a, control, b) => {
				const problem = pathIdProblem(a + control + b);
				expect(problem).toContain(CONTROL);
				expect(problem).not.toContain('once %-decoded');
			}),
			RUNS,
		);
	});

	test('the same %-encoded (UTF-8) 1 to 3 times: refused, once decoded', () => {
		fc.assert(
			fc.property(
				SAFE,
				controls,
				SAFE,
				fc.integer({ min: 1, max: 3 }),
				fc.boolean(),
				(a, control, b, rounds, upper) => {
					expect(pathIdProblem(a + encoded(control, rounds, upper) + b)).toContain(`${CONTROL} once %-decoded`);
				},
			),
			RUNS,
		);
	});

	test('typed around an id, the field reader trims it off (tab, newline) or refuses it', () => {
		fc.assert(
			fc.property(SAFE, controls, (id, control) => {
				const error = readerError(id + control);
				if (error) expect(error.message).toContain(CONTROL);
				else expect(input.id('contactId', 'Contact ID', id + control)).toBe(id);
			}),
			RUNS,
		);
	});
});

describe('generated: fine ids', () => {
	const realShapes = fc.oneof(
		fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
		fc.uuid(),
		fc.stringMatching(/^[0-9a-f]{24}$/),
		fc.nat().map(String),
	);

	test('any id of [A-Za-z0-9_-], a uuid, an ObjectId or a number: taken, and put in the path as it is', () => {
		fc.assert(
			fc.property(realShapes, (id) => {
				expect(pathIdProblem(id)).toBeUndefined();
				expect(apiPath`/v1/organizations/${id as PathId}/locations`).toBe(`/v1/organizations/${id}/locations`);
			}),
			RUNS,
		);
	});

	test('whatever the check takes lands in exactly one segment and decodes back to itself', () => {
		const anyText = fc.oneof(
			fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
			fc.string({ unit: 'binary', maxLength: 12 }),
		);
		fc.assert(
			fc.property(anyText, (text) => {
				fc.pre(pathIdProblem(text) === undefined);
				const segments = apiPath`/v2/customers/${text as PathId}/otp`.split('/');
				expect(segments).toHaveLength(5);
				expect(segments[3]).toMatch(/^[A-Za-z0-9\-_.!~*'()%]+$/);
				expect(decodeURIComponent(segments[3])).toBe(text);
			}),
			{ numRuns: 200 },
		);
	});
});
