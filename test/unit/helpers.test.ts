/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { eventId, kindFilter, utcMs } from '../../nodes/Cloud4Wi/shared/events';
import { recordsOf } from '../../nodes/Cloud4Wi/shared/paginate';
import { contactProfileOf, simplifyContact, simplifyEvent } from '../../nodes/Cloud4Wi/shared/simplify';
import type { PathId } from '../../nodes/Cloud4Wi/shared/path';
import { apiPath, listEntryProblem, pathIdProblem } from '../../nodes/Cloud4Wi/shared/path';
import {
	commaList,
	isCountryCode,
	isDateOnly,
	isE164,
	timezoneOf,
	toIsoInstant,
} from '../../nodes/Cloud4Wi/shared/formats';
import { ItemInput } from '../../nodes/Cloud4Wi/shared/input';

describe('input checks', () => {
	test.each([
		['+393331234567', true],
		['+14155552671', true],
		['393331234567', false],
		['+0393331234', false],
		['+39 333 1234567', false],
		['+1234', false],
	])('E.164 %s → %s', (value, ok) => expect(isE164(value)).toBe(ok));

	test.each([
		['IT', true],
		['US', true],
		['GB', true],
		['XX', false],
		['UK', false],
		['it', false],
		['ITA', false],
	])('country %s → %s', (value, ok) => expect(isCountryCode(value)).toBe(ok));

	test.each([
		['Europe/Rome', true],
		['America/Argentina/Salta', true],
		['America/Port-au-Prince', true],
		['CET', false],
		['UTC', false],
		['Mars/Base', false],
		['Europe/', false],
	])('time zone %s → %s', (value, ok) => expect(timezoneOf(value) !== undefined).toBe(ok));

	test.each([
		['europe/rome', 'Europe/Rome'],
		['AMERICA/ARGENTINA/SALTA', 'America/Argentina/Salta'],
		['Asia/Kolkata', 'Asia/Kolkata'], // a link keeps its name: Intl would say Asia/Calcutta
	])('time zone %s is sent as %s', (value, sent) => expect(timezoneOf(value)).toBe(sent));

	test.each([
		['2024-02-29', true],
		['2023-02-29', false],
		['2024-13-01', false],
		['2024-1-01', false],
		['01/02/2024', false],
	])('YYYY-MM-DD %s → %s', (value, ok) => expect(isDateOnly(value)).toBe(ok));
});

describe('toIsoInstant', () => {
	test('keeps instants with an offset, in UTC', () => {
		expect(toIsoInstant('2025-03-01T10:00:00+02:00', 'Europe/Rome')).toBe('2025-03-01T08:00:00.000Z');
		expect(toIsoInstant('2025-03-01T10:00:00Z', 'America/New_York')).toBe('2025-03-01T10:00:00.000Z');
	});

	test('reads a value without offset in the workflow time zone, across DST', () => {
		expect(toIsoInstant('2025-01-15T09:30:00', 'Europe/Rome')).toBe('2025-01-15T08:30:00.000Z');
		expect(toIsoInstant('2025-07-15T09:30:00', 'Europe/Rome')).toBe('2025-07-15T07:30:00.000Z');
		expect(toIsoInstant('2025-07-15', 'America/New_York')).toBe('2025-07-15T04:00:00.000Z');
	});

	test('accepts Luxon-like and Date values from expressions', () => {
		expect(toIsoInstant({ toISO: () => '2025-03-01T10:00:00.000Z' }, 'UTC')).toBe('2025-03-01T10:00:00.000Z');
		expect(toIsoInstant(new Date('2025-03-01T10:00:00Z'), 'UTC')).toBe('2025-03-01T10:00:00.000Z');
	});

	test.each(['yesterday', '2025-02-30', '2025-02-30T10:00:00Z', '2025-03-01T25:00:00', '', 12, '1/3/2025'])(
		'rejects %p',
		(value) => {
			expect(toIsoInstant(value, 'Europe/Rome')).toBeUndefined();
		},
	);
});

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

describe('recordsOf', () => {
	test('the named array, else the first array of an undocumented answer, else none', () => {
		expect(recordsOf({ generated: 'x', customers: [{ cid: '1' }] }, 'customers')).toEqual([{ cid: '1' }]);
		expect(recordsOf({ generated: 'x', items: [{ id: 1 }] }, 'devices')).toEqual([{ id: 1 }]);
		expect(recordsOf({ generated: 'x' }, 'devices')).toEqual([]);
	});
});

describe('kindFilter', () => {
	test('filterable kinds go to the server and are checked here too', () => {
		const filter = kindFilter(['signup', 'visit']);
		expect(filter.query).toBe('signup,visit');
		expect(filter.keep({ event: { type: 'visit' } })).toBe(true);
		expect(filter.keep({ event: { type: 'login' } })).toBe(false);
		expect(filter.keep({ type: 'signup' })).toBe(true);
	});

	test('a kind the server cannot filter sends no filter, and filters here', () => {
		const filter = kindFilter(['signup', 'geo_visit']);
		expect(filter.query).toBeUndefined();
		expect(filter.keep({ event: { type: 'geo_visit' } })).toBe(true);
		expect(filter.keep({ event: { type: 'visit' } })).toBe(false);
	});

	test('no kinds means all', () => {
		expect(kindFilter([]).query).toBeUndefined();
		expect(kindFilter([]).keep({ event: { type: 'arriving' } })).toBe(true);
	});
});

describe('Simplify', () => {
	test('a contact becomes flat: opt-ins as booleans, custom opt-ins by title, segment names', () => {
		const flat = simplifyContact({
			cid: 'c1',
			firstName: 'Ada',
			email: 'ada@example.com',
			policies: [
				{ name: 'privacy', accepted: true },
				{ name: 'mktgCommunications', accepted: false },
				{ name: 'customs.Newsletter', accepted: true },
			],
			segments: [{ cid: 's1', name: 'Regulars' }],
		});
		expect(flat).toMatchObject({
			id: 'c1',
			firstName: 'Ada',
			email: 'ada@example.com',
			privacy: true,
			marketingOptIn: false,
			termsOfUse: null,
			customOptIns: { Newsletter: true },
			segments: ['Regulars'],
		});
	});

	test('a live event becomes who, what, where and when', () => {
		const flat = simplifyEvent({
			organizationId: 'o1',
			customerId: 'c1',
			event: { type: 'visit', id: 'e1l', visit: { duration: 3600 } },
			where: { locationId: 'l1', locationName: 'Milano Centrale' },
			when: { createdAt: '2025-03-01T10:00:00.000Z', createdAtLocal: '2025-03-01T11:00:00', timezone: 'Europe/Rome' },
		});
		expect(flat).toMatchObject({
			id: 'e1l',
			type: 'visit',
			contactId: 'c1',
			locationId: 'l1',
			locationName: 'Milano Centrale',
			createdAt: '2025-03-01T10:00:00.000Z',
			visitDuration: 3600,
		});
	});

	test("a schema-shaped visit (no 'when') takes its times from the visit", () => {
		const flat = simplifyEvent({
			type: 'visit',
			id: 'e2l',
			visit: { startAt: '2025-03-01T10:00:00Z', startAtLocal: '2025-03-01T11:00:00', timezone: 'Europe/Rome' },
		});
		expect(flat).toMatchObject({
			id: 'e2l',
			createdAt: '2025-03-01T10:00:00Z',
			createdAtLocal: '2025-03-01T11:00:00',
			timezone: 'Europe/Rome',
		});
	});

	test('segments without a name are left out of the names, not listed empty', () => {
		const flat = simplifyContact({ cid: 'c1', segments: [{ cid: 's1', name: 'Regulars' }, { cid: 's2' }] });
		expect(flat.segments).toStrictEqual(['Regulars']);
	});

	test("a contact's profile: the customer object, or the answer without its envelope", () => {
		expect(contactProfileOf({ generated: 'x', customer: { cid: 'c1' } })).toEqual({ cid: 'c1' });
		expect(contactProfileOf({ generated: 'x', status: 'ok', cid: 'c1', firstName: 'Ada' })).toEqual({
			cid: 'c1',
			firstName: 'Ada',
		});
	});
});

test('a time without a zone, written with T or a space, is UTC, not the zone n8n runs in', () => {
	expect(new Date().getTimezoneOffset()).toBeGreaterThan(0); // west of UTC, as jest.config.js sets: else it proves nothing
	const at = Date.UTC(2025, 2, 1, 9, 30);
	expect(utcMs('2025-03-01T09:30:00')).toBe(at);
	expect(utcMs('2025-03-01 09:30:00')).toBe(at);
	expect(utcMs('2025-03-01T09:30:00Z')).toBe(at);
	expect(utcMs('2025-03-01T10:30:00+01:00')).toBe(at);
});

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

	test('text: a list or an object is refused; text, numbers and nothing are read', () => {
		expect(() => input.text(['a', 'b'], 'Name')).toThrow('Name: must be text or a number, got a list');
		expect(() => input.text({ a: 1 }, 'Name')).toThrow('Name: must be text or a number, got an object');
		expect(input.text(' a ', 'Name')).toBe(' a ');
		expect(input.text(12, 'Name')).toBe('12');
		expect(input.text(undefined, 'Name')).toBe('');
	});
});

test("an event's id in either shape, a number as text (the trigger remembers ids as text); none without one", () => {
	expect(eventId({ event: { type: 'signup', id: 'e1l' } })).toBe('e1l');
	expect(eventId({ type: 'signup', id: 'e2g' })).toBe('e2g');
	expect(eventId({ event: { type: 'signup', id: 42 } })).toBe('42');
	expect(eventId({ event: { type: 'signup' } })).toBeUndefined();
	expect(eventId({ event: { type: 'signup', id: { nested: 1 } } })).toBeUndefined();
});
