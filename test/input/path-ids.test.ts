/**
 * No id can choose the endpoint. The check itself, value by value over the whole catalogue of hostile ids; then every
 * field that puts an id in a URL path, through the engine, with two hostile ids per way the id can come in; then ids
 * that become a dot segment once decoded and trimmed.
 */
import fc from 'fast-check';
import type { IExecuteFunctions, IDataObject, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { notTextProblem, organizationIdOf } from '../../nodes/Cloud4Wi/shared/formats';
import { ItemInput } from '../../nodes/Cloud4Wi/shared/input';
import type { PathId } from '../../nodes/Cloud4Wi/shared/path';
import { apiPath, pathIdProblem } from '../../nodes/Cloud4Wi/shared/path';
import { codePoint, encoded, lookAlikes, SAFE } from './generated';
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

/**
 * The path-id check, value by value: every hostile id of the catalogue is refused by `pathIdProblem` with the problem
 * that names its class, and by the field reader (`ItemInput.id`) naming the field; ids Cloud4Wi or a user really has
 * pass and land, encoded, in one path segment. Properties cover the generated classes: %-encoding at any depth,
 * look-alikes, control characters. The section "every id field" runs two of these through every field.
 */
describe('the check, value by value', () => {
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
				fc.property(
					SAFE,
					fc.constantFrom(...NFKC_ROUTE),
					SAFE,
					fc.integer({ min: 0, max: 2 }),
					(a, char, b, rounds) => {
						const problem = pathIdProblem(a + encoded(char, rounds) + b);
						expect(problem).toContain(classOf((a + char + b).normalize('NFKC')));
						expect(problem).toMatch(/\(once (%-decoded and )?normalised: /);
					},
				),
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
});

/**
 * No id can choose the endpoint, whichever way it reaches the node: through every field that puts an id in a URL path
 * (or sends it as an id in a query or body), typed, mapped from the item, as a resource locator, as a list or an
 * object, as a number; through the credential's default organization, the trigger and the dropdowns. Each hostile id
 * fails its item with an error naming the field, and the sandbox sees nothing; fine ids still arrive, encoded.
 *
 * Two hostile ids per way, a dot segment and a control character: the whole catalogue runs against the check itself
 * above. The id fields are read from the node's description, so a new one that skips the
 * check fails the first test below.
 */
describe('every id field', () => {
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
	function idFieldsOf(
		properties: INodeProperties[],
		show: IDataObject = {},
		parent?: INodeProperties,
	): DescribedField[] {
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
		await expect(runAction(ctx, { resource: 'contact', operation: 'get', contactId: '' })).rejects.toThrow(
			/is required/,
		);
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
			const result = await runAction(ctx, {
				resource: 'segment',
				operation: 'getAll',
				returnAll: true,
				organizationId,
			});
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
				const action = node('Cloud4Wi', ACTION_TYPE, {
					resource: 'hotspot',
					operation: 'getAll',
					organizationId: value,
				});
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
});

/**
 * "..", "." and " .. " (spaces around them) are refused as ids, and every %-decoded and NFKC-normalised reading
 * of an id is checked for a dot segment, but only the raw value is checked for surrounding spaces. So the same " .. "
 * once %-encoded ("..%20", "%20..", "..%C2%A0" with a no-break space, "%E3%80%80.." with an ideographic space, or
 * double-encoded "..%2520") passes and is sent: a server or proxy that decodes the segment and trims it (Windows/IIS
 * strip trailing spaces and dots from path segments) reads "..", and the request goes one level up. Each must be
 * refused like " .. ": a NodeOperationError naming the field, nothing sent; in the trigger, the contact lookup of an
 * event whose customerId is such a value must not be sent either.
 */
describe('padded dot segments', () => {
	const PADDED = ['..%20', '%20..', '%20..%20', '.%20', '..%C2%A0', '%E3%80%80..', '..%2520', '..%E3%80%80'];

	let ctx: TestContext;
	beforeAll(async () => {
		ctx = await startCloud4Wi({ contacts: 3 });
	});
	afterAll(async () => {
		await ctx.sb.close();
	});
	beforeEach(() => ctx.sb.clearRequests());

	test('the raw " .. " is refused (the rule the encoded forms escaped before)', async () => {
		await runAction(ctx, { resource: 'contact', operation: 'get', contactId: ' .. ' });
		// trimmed by the field reader, then refused as a dot segment
		expect(lastThrownError()).toBeInstanceOf(NodeOperationError);
		expect(ctx.sb.requests).toEqual([]);
	});

	describe.each([
		['contact', 'get', 'contactId', 'Contact ID'],
		['contact', 'delete', 'contactId', 'Contact ID'],
		['event', 'getAllForContact', 'contactId', 'Contact ID'],
	])('%s %s, %s', (resource, operation, field, label) => {
		test.each(PADDED)('%j (a dot segment once decoded and trimmed): refused, nothing sent', async (value) => {
			const params: INodeParameters = { resource, operation, [field]: value, returnAll: true };
			const result = await runAction(ctx, params);
			// Before: sent as e.g. /v2/customers/..%2520
			expect(ctx.sb.requests.map((r) => `${r.method} ${r.path}`).filter((p) => !p.includes('/sts/login'))).toEqual([]);
			expect(result.error).toBeDefined();
			expect(lastThrownError()).toBeInstanceOf(NodeOperationError);
			expect((lastThrownError() as Error).message.startsWith(`${label}: `)).toBe(true);
		});
	});

	test('the trigger\'s Include Contact Profile: an event whose customerId is "..%20" gets no lookup, and says why', async () => {
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'], options: { includeContact: true } }));
		ctx.sb.injectEvents({ type: 'signup', customerId: '..%20', createdAt: ctx.sb.clock.now() - 1000 });
		const { emitted } = await pollOnce(workflow, ctx.store, 'Trigger', 'manual');
		expect(emitted).toHaveLength(1);
		const lookups = ctx.sb.requests.filter((r) => r.path.startsWith('/v2/customers/'));
		// Before: GET /v2/customers/..%2520 was sent
		expect(lookups).toEqual([]);
		expect(emitted![0].json.contact).toBeNull();
		expect(String(emitted![0].json.contactError)).toMatch(/contact ID/);
	});
});

/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
describe('apiPath', () => {
	const id = (value: string) => value as PathId;
	test('encodes every id', () => {
		expect(apiPath`/v2/customers/${id('a b+é')}/otp`).toBe('/v2/customers/a%20b%2B%C3%A9/otp');
		expect(apiPath`/v1/organizations/${id('o1')}/locations/${id('l1')}`).toBe('/v1/organizations/o1/locations/l1');
	});
	test.each([
		'',
		' ',
		'..',
		'.',
		'a/b',
		'a\\b',
		'a?b',
		'a#b',
		'a\nb',
		'%2e%2e',
		'%2E.',
		'a%2Fb',
		'a%252Fb',
		'a%5cb',
		'%00',
		' x',
		'a%2Fb%',
		'a%c0%afb',
		'a\uff0fb',
		'a\u2215b',
		'a;v=1',
	])('refuses %p even if a caller skipped the check', (value) => {
		expect(() => apiPath`/v1/customers/${id(value)}`).toThrow('Refused to build a Cloud4Wi path');
	});
});

/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
describe('pathIdProblem', () => {
	test.each([
		['', 'is empty'],
		['..', 'dot segment'],
		['.', 'dot segment'],
		['%2e%2E', 'dot segment'],
		['.%2e', 'dot segment'],
		['a/b', '"/", "\\", "?" or "#"'],
		['a\\b', '"/", "\\", "?" or "#"'],
		['a?b', '"/", "\\", "?" or "#"'],
		['a#b', '"/", "\\", "?" or "#"'],
		['a%2fb', 'once %-decoded'],
		['a%25252fb', 'once %-decoded'],
		['line\nbreak', 'control character'],
		['tab\there', 'control character'],
		['nul%00', 'control character'],
		['del\u007f', 'control character'],
		// A "%" that starts no escape, at any layer, or escapes that are not UTF-8: a lenient decoder reads them anyhow.
		['100%', 'not followed by two hex digits'],
		['%zz', 'not followed by two hex digits'],
		['a%2Fb%', 'not followed by two hex digits'],
		['x%252F%zz', 'not followed by two hex digits'],
		['%2e%2e%', 'not followed by two hex digits'],
		['a%25zz', 'not followed by two hex digits (once %-decoded: "a%zz")'],
		['..%2F..%2Fsts%2Flogout%c0', 'do not decode to text'],
		['logout%c0', 'do not decode to text'],
		['a%c0%afb', 'do not decode to text'],
		['%c0%ae%c0%ae', 'do not decode to text'],
		['a%ed%a0%80b', 'do not decode to text'],
		['a\ud800b', 'lone UTF-16 surrogate'],
		['a%2525252Fb', '%-encoded too many times'],
		// Look-alikes a server may normalise onto route characters.
		['a\uff0fb', '(once normalised: "a/b")'],
		['\uff0e\uff0e', 'dot segment (once normalised: "..")'],
		['a\uff1fb', '(once normalised: "a?b")'],
		['a\uff03b', '(once normalised: "a#b")'],
		['a\uff3cb', '(once normalised: "a\\\\b")'],
		['a\ufe68b', '(once normalised: "a\\\\b")'],
		['\u2024\u2024', 'dot segment (once normalised: "..")'],
		['\ufe52', 'dot segment (once normalised: ".")'],
		['\u2025', 'dot segment (once normalised: "..")'],
		['a%EF%BC%8Fb', '(once %-decoded and normalised: "a/b")'],
		['a\uff052Fb', '(once %-decoded and normalised: "a/b")'],
		['a\u2215b', 'U+2215'],
		['a\u2044b', 'U+2044'],
		['a\u29f8b', 'U+29F8'],
		['a\u2216b', 'U+2216'],
		['a\u3002b', 'U+3002'],
		// Matrix parameters.
		['a;v=1', 'contains ";"'],
		['a%3Bv=1', 'contains ";" (once %-decoded: "a;v=1")'],
		['a\uff1bv=1', 'contains ";" (once normalised: "a;v=1")'],
		// Commas: a server that takes several ids in one segment would act on two records.
		['a,b', 'contains a comma, which could be read as two IDs'],
		[',', 'contains a comma'],
		['a%2Cb', 'contains a comma (once %-decoded: "a,b")'],
		['a%252cb', 'contains a comma (once %-decoded: "a,b")'],
		['a\uff0cb', 'contains a comma (once normalised: "a,b")'],
		['a%EF%BC%8Cb', 'contains a comma (once %-decoded and normalised: "a,b")'],
	])('%p: %s', (value, problem) => {
		expect(pathIdProblem(value)).toContain(problem);
	});
	test.each([
		'c-12',
		'5f3c9a0e1b2d4c6e8f0a1b2c',
		'5f3c9a0e-1b2d-4c6e-8f0a-1b2c3d4e5f60',
		'A_B-C.D',
		'a:b',
		'user@example.com',
		'a b',
		'...',
		'café',
		'Ünïcödé',
		'東京',
		'\ufb01le',
		'a%20b',
	])('%p is fine', (value) => {
		expect(pathIdProblem(value)).toBeUndefined();
	});
});
