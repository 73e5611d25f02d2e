/** The format checks of typed values: phone numbers, country codes, time zones, dates and instants. */

import { isCountryCode, isDateOnly, isE164, timezoneOf, toIsoInstant } from '../../nodes/Cloud4Wi/shared/formats';

/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
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

/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
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
