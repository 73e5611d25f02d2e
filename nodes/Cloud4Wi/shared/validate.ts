import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_PAGE_SIZE } from './paginate';
import type { PathId } from './path';
import { listEntryProblem, pathIdProblem } from './path';
import { credentialsOf } from './transport';

/** Every check here runs before a request is built, so a bad item never reaches the service. */
export function inputError(node: INode, field: string, problem: string, itemIndex: number, description?: string) {
	return new NodeOperationError(node, `${field}: ${problem}`, { itemIndex, description });
}

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

/** Area/City zone names that this runtime knows (Europe/Rome, America/Argentina/Salta). */
export function isTimezone(value: string): boolean {
	if (!/^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/.test(value)) return false;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: value });
		return true;
	} catch {
		return false;
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
function shown(value: unknown): string {
	if (value === undefined || value === null) return String(value);
	if (Array.isArray(value)) return 'a list';
	return typeof value === 'object' ? 'an object' : `"${String(value)}"`;
}

const isListOrObject = (value: unknown) => value !== null && typeof value === 'object';

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
function numberOf(value: unknown): number {
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

/** Reads typed parameters of one item and rejects bad ones with the field's name. */
export class ItemInput {
	constructor(
		private readonly ctx: IExecuteFunctions,
		readonly itemIndex: number,
	) {}

	private fail(field: string, problem: string, description?: string): never {
		throw inputError(this.ctx.getNode(), field, problem, this.itemIndex, description);
	}

	/** A parameter's raw value; resource locators give their value, so a plain ID string works too. */
	raw(name: string, fallback?: unknown): unknown {
		const value = this.ctx.getNodeParameter(name, this.itemIndex, fallback, { extractValue: true });
		if (value && typeof value === 'object' && '__rl' in value) return (value as { value: unknown }).value;
		return value;
	}

	/** A text field's value, untrimmed; a list or an object is refused, since String() would send "a,b" or "[object Object]". */
	text(value: unknown, label: string): string {
		if (isListOrObject(value)) this.fail(label, `must be text or a number, got ${shown(value)}`);
		return value === undefined || value === null ? '' : String(value);
	}

	string(name: string, label: string): string {
		return this.text(this.raw(name, ''), label).trim();
	}

	/** An on/off value. Mapped data gives text, and Boolean("false") is true, so only clear answers are taken. */
	onOff(value: unknown, label: string): boolean {
		const answer = onOffOf(value);
		if (answer === undefined) this.fail(label, `must be true or false, got ${shown(value)}`);
		return answer;
	}

	boolean(name: string, label: string, fallback = false): boolean {
		return this.onOff(this.raw(name, fallback), label);
	}

	collection(name: string): IDataObject {
		return (this.ctx.getNodeParameter(name, this.itemIndex, {}) ?? {}) as IDataObject;
	}

	/** An id that goes into a URL path (spaces around it trimmed): refused when it could change the route. */
	id(name: string, label: string, value: unknown = this.raw(name, '')): PathId {
		const text = this.text(value, label).trim();
		const problem = pathIdProblem(text);
		if (problem === 'is empty') this.fail(label, 'is empty', `Enter the ${label} or map it from an earlier node.`);
		if (problem) this.fail(label, problem);
		return text as PathId;
	}

	/** Entries of a list field (see `commaList`); `commas` when each entry is sent on its own. */
	list(value: unknown, label: string, commas = false): string[] {
		const { entries, problem } = commaList(value, commas);
		if (problem) this.fail(label, problem);
		return entries;
	}

	/** The organization of the node, or the credential's default one. */
	async organizationId(): Promise<PathId> {
		const typed = this.string('organizationId', 'Organization ID');
		if (typed) return this.id('organizationId', 'Organization ID', typed);
		const credentials = await credentialsOf(this.ctx);
		const fallback = typeof credentials.organizationId === 'string' ? credentials.organizationId.trim() : '';
		if (!fallback) {
			this.fail(
				'Organization ID',
				'is empty, and the Cloud4Wi credential has no default organization',
				'Enter the organization ID here or set a default organization ID in the credential.',
			);
		}
		return this.id('organizationId', 'Organization ID (the credential’s default)', fallback);
	}

	/** Return All (undefined) or the Limit, checked against the API's 1..10,000. */
	limit(): number | undefined {
		if (this.boolean('returnAll', 'Return All')) return undefined;
		return this.size(this.raw('limit', 50), 'Limit');
	}

	size(value: unknown, label: string): number {
		const n = numberOf(value);
		if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_SIZE) {
			this.fail(label, `must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${shown(value)}`);
		}
		return n;
	}

	dateTime(value: unknown, label: string): string {
		const iso = toIsoInstant(value, this.ctx.getTimezone());
		if (!iso)
			this.fail(label, `"${String(value)}" is not an ISO 8601 date-time`, 'Use a form like 2025-03-01T09:30:00Z.');
		return iso;
	}

	dateOnly(value: unknown, label: string): string {
		const text = this.text(value, label).trim();
		if (!isDateOnly(text)) this.fail(label, `"${text}" is not a date in YYYY-MM-DD form`);
		return text;
	}

	/** Both ends of a range, checked and in order. */
	range(start: string | undefined, end: string | undefined, labels: [string, string]): void {
		if (start && end && Date.parse(start) > Date.parse(end)) {
			this.fail(labels[0], `${start} is after ${labels[1]} ${end}`);
		}
	}

	phone(value: unknown, label: string): string {
		const text = this.text(value, label).replace(/[\s()-]/g, '');
		if (!isE164(text))
			this.fail(label, `"${String(value)}" is not an E.164 phone number`, 'Use a form like +393331234567.');
		return text;
	}

	country(value: unknown, label: string): string {
		const text = this.text(value, label).trim().toUpperCase();
		if (!isCountryCode(text))
			this.fail(
				label,
				`"${String(value)}" is not an ISO 3166-1 alpha-2 country code`,
				'Use two letters, such as IT or US.',
			);
		return text;
	}

	timezone(value: unknown, label: string): string {
		const text = this.text(value, label).trim();
		if (!isTimezone(text))
			this.fail(label, `"${text}" is not a time zone in Area/City form`, 'Use a form like Europe/Rome.');
		return text;
	}

	coordinate(value: unknown, label: string, bound: 90 | 180): number {
		const n = numberOf(value);
		if (!Number.isFinite(n) || Math.abs(n) > bound)
			this.fail(label, `must be a number from -${bound} to ${bound}, got ${shown(value)}`);
		return n;
	}

	oneOf<T extends string>(value: unknown, label: string, allowed: readonly T[]): T {
		const text = this.text(value, label).trim();
		if (!allowed.includes(text as T)) this.fail(label, `"${text}" is not one of: ${allowed.join(', ')}`);
		return text as T;
	}

	required(value: unknown, label: string): string {
		const text = this.text(value, label).trim();
		if (!text) this.fail(label, 'is required');
		return text;
	}

	macAddress(value: unknown, label: string): string {
		const text = this.text(value, label).trim();
		if (!/^[0-9A-Fa-f]{2}(?:[:-]?[0-9A-Fa-f]{2}){5}$/.test(text))
			this.fail(label, `"${text}" is not a MAC address`, 'Use a form like AA:BB:CC:DD:EE:FF.');
		return text;
	}
}
