import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { listEntryProblem } from './path';

/** Value formats: pure checks of what a user typed or mapped, shared by the node, the trigger and the dropdowns. */

// ISO 3166-1 alpha-2, officially assigned codes.
const COUNTRY_CODES = new Set(
	(
		'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
		'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
		'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
		'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
		'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
		'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
		'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
	).split(' '),
);

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
const HAS_ZONE = /(?:Z|[+-]\d{2}:?\d{2})$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when the string is a real calendar date in YYYY-MM-DD form. */
export function isDateOnly(value: string): boolean {
	const m = DATE_ONLY.exec(value);
	if (!m) return false;
	const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
	return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

export function isE164(value: string): boolean {
	return /^\+[1-9]\d{6,14}$/.test(value);
}

export function isCountryCode(value: string): boolean {
	return COUNTRY_CODES.has(value);
}

/**
 * An Area/City zone name that this runtime knows (Europe/Rome, America/Argentina/Salta) in its own spelling, or
 * undefined. Intl takes europe/rome, a zone database lookup may not; a link (Asia/Kolkata) keeps its name, not Intl's.
 */
export function timezoneOf(value: string): string | undefined {
	if (!/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/.test(value)) return undefined;
	try {
		const known = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
		return known.toLowerCase() === value.toLowerCase() ? known : value;
	} catch {
		return undefined;
	}
}

/** Offset of a zone from UTC at an instant, in ms. */
function zoneOffsetMs(instant: number, timeZone: string): number {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(instant));
	const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
	const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
	return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * An ISO 8601 instant in UTC, or undefined for a malformed value. A value without an offset (as n8n's date
 * picker gives) is read in the workflow's time zone, as the user saw it.
 */
export function toIsoInstant(value: unknown, timeZone: string): string | undefined {
	if (value && typeof value === 'object' && typeof (value as { toISO?: unknown }).toISO === 'function') {
		value = (value as { toISO: () => string }).toISO();
	}
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	if (!ISO_DATE_TIME.test(text)) return undefined;
	if (!isDateOnly(text.slice(0, 10))) return undefined; // Date.parse would roll 02-30 over into March
	const normalized = text.replace(' ', 'T');
	if (HAS_ZONE.test(normalized)) {
		const ms = Date.parse(normalized);
		return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
	}
	const wall = Date.parse(`${DATE_ONLY.test(normalized) ? `${normalized}T00:00:00` : normalized}Z`);
	if (Number.isNaN(wall)) return undefined;
	const guess = wall - zoneOffsetMs(wall, timeZone);
	return new Date(wall - zoneOffsetMs(guess, timeZone)).toISOString();
}

/** A value as a message shows it: quoted, or a list or an object by its kind (String() would say "a,b" or "[object Object]"). */
export function shown(value: unknown): string {
	if (value === undefined || value === null) return String(value);
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `"${String(value)}"`;
}

const isListOrObject = (value: unknown) => value !== null && typeof value === 'object';

/** Why a value is no date-time, as a message says it: String() showed a list by its one date, as if that were refused. */
export function notDateTimeProblem(value: unknown): string {
	if (value === undefined || value === null || (typeof value === 'string' && !value.trim())) return 'is empty';
	const dated = value instanceof Date || typeof (value as { toISO?: unknown }).toISO === 'function';
	if (isListOrObject(value) && !dated) return `must be a date-time, got ${shown(value)}`;
	return `"${String(value)}" is not an ISO 8601 date-time`;
}

/** Why a value cannot go into a text, id or number field: String() would send "a,b" or "[object Object]". */
export function notTextProblem(value: unknown): string | undefined {
	return isListOrObject(value) ? `must be text or a number, got ${shown(value)}` : undefined;
}

/**
 * Entries of a list field that becomes one comma-separated value. A text (what an expression gives) is split at its
 * commas; a list's entries are taken whole, so one holding a comma, which would be read as two, is refused (unless
 * `commas`: each entry is sent on its own), and so is an entry that is itself a list or an object.
 */
export function commaList(value: unknown, commas = false): { entries: string[]; problem?: string } {
	const raw = Array.isArray(value) ? value : isListOrObject(value) ? [value] : String(value ?? '').split(',');
	const odd = raw.find(isListOrObject);
	if (odd !== undefined) return { entries: [], problem: `has an entry that is ${shown(odd)}, not text or a number` };
	const entries = raw
		.map((entry) => (entry === undefined || entry === null ? '' : String(entry).trim()))
		.filter(Boolean);
	for (const entry of commas ? [] : entries) {
		const problem = listEntryProblem(entry);
		if (problem) return { entries, problem };
	}
	return { entries };
}

/** A number typed or mapped as text; a list (Number([7]) is 7), an empty text or anything else is not a number. */
export function numberOf(value: unknown): number {
	if (typeof value === 'number') return value;
	return typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
}

/** An on/off value as mapped data gives it: true/false, the texts "true"/"false" (any case) or 1/0; else undefined. */
export function onOffOf(value: unknown): boolean | undefined {
	const answer = typeof value === 'string' ? value.trim().toLowerCase() : value;
	if (answer === true || answer === 'true' || answer === 1 || answer === '1') return true;
	if (answer === false || answer === 'false' || answer === 0 || answer === '0') return false;
	return undefined;
}

export const notOnOffProblem = (value: unknown) => `must be true or false, got ${shown(value)}`;

/** The organization typed in the node, else the credential's default; the label names which one for a message. */
export function organizationIdOf(typed: unknown, credentials: ICredentialDataDecryptedObject) {
	const text = typeof typed === 'string' ? typed.trim() : '';
	if (text) return { id: text, label: 'Organization ID' };
	const fallback = typeof credentials.organizationId === 'string' ? credentials.organizationId.trim() : '';
	return { id: fallback, label: 'Organization ID (the credential’s default)' };
}
