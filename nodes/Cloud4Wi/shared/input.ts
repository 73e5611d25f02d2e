import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	commaList,
	isCountryCode,
	isDateOnly,
	isE164,
	notDateTimeProblem,
	notOnOffProblem,
	notTextProblem,
	numberOf,
	onOffOf,
	organizationIdOf,
	shown,
	timezoneOf,
	toIsoInstant,
} from './formats';
import { MAX_PAGE_SIZE } from './paginate';
import type { PathId } from './path';
import { pathIdProblem } from './path';
import { credentialsOf } from './runs';
import { runsAsTool } from './tool';

/** A resource locator's value, so a plain ID string works too; any other value as it is. */
const locatorValue = (value: unknown): unknown =>
	value && typeof value === 'object' && '__rl' in value ? (value as { value?: unknown }).value : value;

/** Said with every filter refused as empty. */
const EMPTY_FILTER_HINT = 'Remove this filter to leave it out, or map a value into it.';

/** Every check here runs before a request is built, so a bad item never reaches the service. */
export function inputError(node: INode, field: string, problem: string, itemIndex: number, description?: string) {
	return new NodeOperationError(node, `${field}: ${problem}`, { itemIndex, description });
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
		return locatorValue(this.ctx.getNodeParameter(name, this.itemIndex, fallback, { extractValue: true }));
	}

	/** A text field's value, untrimmed; a list or an object is refused, since String() would send "a,b" or "[object Object]". */
	text(value: unknown, label: string): string {
		const problem = notTextProblem(value);
		if (problem) this.fail(label, problem);
		return value === undefined || value === null ? '' : String(value);
	}

	string(name: string, label: string): string {
		return this.text(this.raw(name, ''), label).trim();
	}

	/** An on/off value. Mapped data gives text, and Boolean("false") is true, so only clear answers are taken. */
	onOff(value: unknown, label: string): boolean {
		const answer = onOffOf(value);
		if (answer === undefined) this.fail(label, notOnOffProblem(value));
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
		const { id, label } = organizationIdOf(
			this.string('organizationId', 'Organization ID'),
			await credentialsOf(this.ctx),
		);
		if (!id) {
			this.fail(
				'Organization ID',
				'is empty, and the Cloud4Wi credential has no default organization',
				'Enter the organization ID here or set a default organization ID in the credential.',
			);
		}
		return this.id('organizationId', label, id);
	}

	/** Return All (undefined) or the Limit, checked against the API's 1..10,000. */
	limit(): number | undefined {
		if (this.boolean('returnAll', 'Return All')) return undefined;
		const limit = this.size(this.raw('limit', 50), 'Limit');
		// A tool reads one more, to tell the model whether more match (answerForModel).
		return runsAsTool(this.ctx) ? limit + 1 : limit;
	}

	size(value: unknown, label: string): number {
		const n = numberOf(value);
		if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_SIZE) {
			this.fail(label, `must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${shown(value)}`);
		}
		return n;
	}

	/** The end of a From-To range: a date alone takes in its whole day ("To 2025-03-01" includes March 1). */
	dateTimeEnd(value: unknown, label: string): string {
		const text = typeof value === 'string' ? value.trim() : '';
		return this.dateTime(isDateOnly(text) ? `${text}T23:59:59.999` : value, label);
	}

	dateTime(value: unknown, label: string): string {
		const iso = toIsoInstant(value, this.ctx.getTimezone());
		if (!iso) this.fail(label, notDateTimeProblem(value), 'Use a form like 2025-03-01T09:30:00Z.');
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
		const zone = timezoneOf(text);
		if (!zone) this.fail(label, `"${text}" is not a time zone in Area/City form`, 'Use a form like Europe/Rome.');
		return zone;
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

	/** Whether an optional field was added. Added but empty (a blank cell mapped in), it fails: a filter left out so
	 * would widen the search, and a Get Many by a blank email would list every contact. */
	given(value: unknown, label: string): boolean {
		if (value === undefined) return false;
		const inner = locatorValue(value);
		const blank = typeof inner === 'string' ? !inner.trim() : inner === null || (Array.isArray(inner) && !inner.length);
		if (blank) this.fail(label, 'is empty', EMPTY_FILTER_HINT);
		return true;
	}

	/** The entries of a list filter (see `list`); none when it was not added, and added with none (blanks only), it fails. */
	listFilter(value: unknown, label: string, commas = false): string[] {
		if (value === undefined) return [];
		const entries = this.list(value, label, commas);
		if (!entries.length) this.fail(label, 'is empty', EMPTY_FILTER_HINT);
		return entries;
	}

	/** An Update whose fields all came out empty (mapped from data that is not there) would PUT no change and report it done. */
	changeNeeded(changed: boolean, fields: IDataObject, hint: string): void {
		const given = Object.keys(fields).length > 0;
		if (!changed) this.fail(`Update Fields (${given ? 'every field given resolved to nothing' : hint})`, 'is required');
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
