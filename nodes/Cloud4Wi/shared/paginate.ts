import { hash } from 'node:crypto';

import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Cloud4WiContext } from './runs';
import type { ApiRequest } from './transport';
import { cloud4WiApiRequest, mayHaveBeenServed } from './transport';

/** The largest page the API allows; Return All uses it so N records cost ceil(N / 10,000) requests. */
export const MAX_PAGE_SIZE = 10_000;
/** `limit`/`offset` lists (hotspots) document no maximum; 1,000 is a page such lists commonly accept. */
const MAX_OFFSET_PAGE_SIZE = 1_000;
/**
 * Most records one listing reads, with or without a total. Events, the smallest records, take under a kilobyte of heap
 * each, so 2 M is over 1.5 GB held, plus about 1 GB of JSON when n8n saves the execution: most of the heap even a large
 * n8n has by default (V8 gives at most about 4 GB, less on smaller machines; contacts, about three times larger, fill it
 * before 2 M). So a real listing that large could hardly finish in n8n anyway, and one that never ends is stopped while
 * n8n has memory left.
 */
const MAX_LISTING_RECORDS = 2_000_000;
/** Most pages one listing reads: its most records at 100 a page (a service that serves far smaller pages than asked). */
const MAX_LISTING_PAGES = MAX_LISTING_RECORDS / 100;
/** Times an offset listing reads its list again from the start after the list changed under it, before it gives up. */
const MAX_REREADS = 3;

/** How an endpoint pages. */
export type Paging =
	/** Scroll ids: the first call opens a scroll, later calls pass the id back; the page size never changes. */
	| { style: 'scroll'; idParam: 'sid' | 'scrollId'; idField: 'sId' | 'scrollId'; open?: IDataObject }
	/** `limit` + `offset`. */
	| { style: 'offset' }
	/** One call whose `size` caps the answer. */
	| { style: 'sized' }
	/** One call returning everything; Limit is applied here. */
	| { style: 'none' };

/** The records of an answer: the named array, else the first array in it (for endpoints the spec does not describe). */
export function recordsOf(body: IDataObject, key?: string): IDataObject[] {
	const named = key === undefined ? undefined : body[key];
	if (Array.isArray(named)) return named as IDataObject[];
	const firstArray = Object.values(body).find((value) => Array.isArray(value));
	return (firstArray as IDataObject[] | undefined) ?? [];
}

/** A record's id (`id`, a contact's `cid`, an event's `event.id`), as text; undefined for records without one. */
function idOf(record: unknown): string | undefined {
	if (record === null || typeof record !== 'object') return undefined;
	const r = record as IDataObject;
	const id = r.id ?? r.cid ?? ((r.event ?? {}) as IDataObject).id;
	if (typeof id === 'string') return id;
	return typeof id === 'number' ? String(id) : undefined;
}

/** What tells a record from another: its id, else its whole content. */
function identity(record: unknown): string {
	const id = idOf(record);
	return id === undefined ? (JSON.stringify(record) ?? '') : `id ${id}`;
}

/** What tells a page from another cheaply: its size and its first and last records. */
function pageMark(page: IDataObject[]): string {
	return `${page.length}\n${identity(page[0])}\n${identity(page[page.length - 1])}`;
}

/**
 * The records a listing has handed on, by identity: ids as the answer holds them (no copy), records without an id by a
 * SHA-1 of their content (28 characters instead of the whole record kept twice). Records without an id are repeats only
 * when an earlier page held them: two identical rows within one page are two rows (two WiFi sessions alike in every field).
 * Each is kept with the last pass that read it, so a list read again counts its own records against its total.
 */
class HandedOn {
	private readonly ids = new Map<string, number>();
	private readonly contents = new Map<string, number>();
	private readonly contentsOfThisPage = new Set<string>();
	private pass = 0;
	/** Records of the list read in this pass, each once (a scroll's pages may repeat some). */
	readInPass = 0;

	/** Adds the record; false if one with its identity was handed on before. */
	add(record: unknown): boolean {
		const id = idOf(record);
		const key = id ?? hash('sha1', identity(record), 'base64');
		const kept = id !== undefined ? this.ids : this.contents;
		const last = kept.get(key);
		if (last !== this.pass) this.readInPass++;
		if (id !== undefined) this.ids.set(id, this.pass);
		else this.contentsOfThisPage.add(key);
		return last === undefined;
	}

	/** Ends a page: its records without an id now count as read for the pages after it. */
	endPage(): void {
		for (const key of this.contentsOfThisPage) this.contents.set(key, this.pass);
		this.contentsOfThisPage.clear();
	}

	/** The list is read again from the start. */
	nextPass(): void {
		[this.pass, this.readInPass] = [this.pass + 1, 0];
	}
}

/** The records of `page` not handed on before (the page itself when all are new, as they are unless Cloud4Wi repeats some). */
function freshIn(page: IDataObject[], handed: HandedOn): IDataObject[] {
	let fresh: IDataObject[] | undefined;
	for (let i = 0; i < page.length; i++) {
		const isNew = handed.add(page[i]);
		if (!isNew && fresh === undefined) fresh = page.slice(0, i);
		else if (isNew && fresh !== undefined) fresh.push(page[i]);
	}
	handed.endPage();
	return fresh ?? page;
}

/** Errors that stopped a listing because Cloud4Wi sent a page it had sent before. */
const repeatedPages = new WeakSet<Error>();
export function isRepeatedPage(error: unknown): boolean {
	return error instanceof Error && repeatedPages.has(error);
}

function listingStopped(ctx: Cloud4WiContext, req: ApiRequest, message: string, description: string): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, { message, description, itemIndex: req.itemIndex });
}

function repeatedPage(ctx: Cloud4WiContext, req: ApiRequest, message: string, description: string): NodeApiError {
	const error = listingStopped(ctx, req, message, description);
	repeatedPages.add(error);
	return error;
}

/** An offset list's `count` when it is the number of all matching records; a count equal to its page's length may be the page's own. */
function listCount(body: IDataObject, page: IDataObject[]): number | undefined {
	return typeof body.count === 'number' && body.count !== page.length ? body.count : undefined;
}

/**
 * The one place paging happens: yields each page (its records and the whole answer), following the endpoint's paging until the records
 * run out, and never asks for a trailing empty page when the answer already says it was the last. No record is handed on twice in one
 * listing: a record sent again (by id, else by content) is left out. A page that repeats an earlier one, or holds only records sent
 * before (a service ignoring the scroll id or offset), more records than the first `totalCount` and a page, or more than
 * MAX_LISTING_RECORDS, stop the listing with an error before that page is handed on, so no listing runs without end.
 */
export async function* pagesOf(
	this: Cloud4WiContext,
	req: ApiRequest,
	recordsKey: string,
	paging: Paging,
	pageSize: number,
): AsyncGenerator<{ records: IDataObject[]; body: IDataObject }> {
	if (paging.style === 'none' || paging.style === 'sized') {
		const query = paging.style === 'sized' ? { ...req.query, size: pageSize } : req.query;
		const { body } = await cloud4WiApiRequest.call(this, { ...req, query });
		yield { records: recordsOf(body, recordsKey), body };
		return;
	}
	const listing = new Listing(this, req, paging, pageSize);
	for (;;) {
		const body = await listing.nextAnswer();
		if (!body) continue; // a scroll lost an answer: its list is read again from the start
		const answered = recordsOf(body, recordsKey);
		const page = listing.pageIn(answered, body);
		if (!page) continue; // the offset list changed under the listing: read again from the start
		yield { records: listing.recordsToHandOn(page, answered, body), body };
		if (!listing.moveOn(page, answered, body)) return;
	}
}

/** How many records the answer says the whole list has (a scroll's `totalCount`). */
function totalOf(body: IDataObject): number | undefined {
	return typeof body.totalCount === 'number' ? body.totalCount : undefined;
}

/** Where a listing of pages (a scroll or an offset list) has got to, and its checks on each page. */
class Listing {
	private readonly handed = new HandedOn();
	private read = 0; // records received, in all passes
	private pageNumber = 0;
	private rereads = 0;
	private scrollId: string | undefined;
	private seen = 0; // records of the list read in this pass: the next offset (less one when the last is asked again)
	private announced: number | undefined;
	private passCount: number | undefined; // an offset list's count on the first page of this pass that gave one
	// An offset list's previous last record, asked for again at the start of the next page: if another is there, the
	// list shifted between the two pages (a delete and an add leave the count as it was).
	private overlap: IDataObject | undefined;
	private readonly marks = new Map<string, number>(); // page mark -> page number, one short string per page of this pass

	constructor(
		private readonly ctx: Cloud4WiContext,
		private readonly req: ApiRequest,
		private readonly paging: Extract<Paging, { style: 'scroll' | 'offset' }>,
		private readonly pageSize: number,
	) {}

	/** The next page's answer; undefined when a scroll lost it and the list is read again from the start. */
	async nextAnswer(): Promise<IDataObject | undefined> {
		const { paging, pageSize, scrollId } = this;
		this.pageNumber++;
		const query: IDataObject = { ...this.req.query };
		if (paging.style === 'offset') {
			Object.assign(query, { limit: pageSize, offset: this.overlap === undefined ? this.seen : this.seen - 1 });
		} else {
			// What opens the scroll goes with every page: a service may give the next scroll id only when asked each time.
			Object.assign(query, { size: pageSize }, paging.open, scrollId ? { [paging.idParam]: scrollId } : {});
		}
		try {
			const movesScroll = scrollId !== undefined;
			return (await cloud4WiApiRequest.call(this.ctx, { ...this.req, query, movesScroll })).body;
		} catch (error) {
			const failure = error as NodeApiError; // from the transport: already an n8n error
			// The scroll moved past the page whose answer was lost: read the list again from the start, MAX_REREADS times.
			if (scrollId === undefined || !mayHaveBeenServed(failure) || this.rereads++ === MAX_REREADS) throw failure;
			[this.scrollId, this.seen] = [undefined, 0];
			this.marks.clear();
			this.handed.nextPass();
			return undefined;
		}
	}

	/** The answer's records not read before; undefined when the offset list changed and is read again. */
	pageIn(answered: IDataObject[], body: IDataObject): IDataObject[] | undefined {
		if (this.paging.style === 'offset') {
			// A changed count means shifted offsets (a record missed or repeated): read again from the start.
			const count = listCount(body, answered);
			if (this.seen > 0 && count !== undefined && this.passCount !== undefined && count !== this.passCount) {
				this.readAgain(`Its count went from ${this.passCount} to ${count} between two pages`);
				return undefined;
			}
			this.passCount ??= count;
		}
		// Before the offset list's shift check: a service ignoring the offset is named as such.
		if (answered.length > 0) this.markPage(answered);
		if (this.overlap === undefined) return answered;
		if (answered.length === 0 || identity(answered[0]) !== identity(this.overlap)) {
			this.readAgain(`The record at offset ${this.seen - 1} was no longer the one read there a page before`);
			return undefined;
		}
		return answered.slice(1); // the previous page's last record, where it was: nothing shifted
	}

	/** Stops the listing at a page that repeats an earlier page of this pass. */
	private markPage(answered: IDataObject[]): void {
		const mark = pageMark(answered);
		const earlier = this.marks.get(mark);
		if (earlier !== undefined) {
			throw repeatedPage(
				this.ctx,
				this.req,
				'Cloud4Wi sent the same page again',
				`Page ${this.pageNumber} held the same records as page ${earlier}, so the listing was stopped and nothing is repeated. Cloud4Wi may be ignoring the scroll ID or offset: try again later.`,
			);
		}
		this.marks.set(mark, this.pageNumber);
	}

	/** An offset list changed under the listing: read it again from the start, MAX_REREADS times, then stop. */
	private readAgain(change: string): void {
		if (this.rereads++ === MAX_REREADS) {
			throw listingStopped(
				this.ctx,
				this.req,
				'The list changed in Cloud4Wi while it was being read',
				`${change}, and reading it again from the start ${MAX_REREADS} times did not get a list that held still, so the listing was stopped rather than miss or repeat a record. Try again later, or narrow the list with the filters.`,
			);
		}
		this.seen = 0;
		this.passCount = undefined;
		this.overlap = undefined;
		this.marks.clear();
	}

	/** The page's records not handed on before, once the page is counted within the listing's bounds. */
	recordsToHandOn(page: IDataObject[], answered: IDataObject[], body: IDataObject): IDataObject[] {
		this.read += page.length;
		this.seen += page.length;
		// A scroll is a snapshot: the first count, plus a page for records added meanwhile, is the most there can be.
		this.announced ??= totalOf(body);
		const { announced, read, pageNumber } = this;
		if (announced !== undefined && this.seen > announced + this.pageSize) {
			throw listingStopped(
				this.ctx,
				this.req,
				`Cloud4Wi sent more records than the ${announced} it announced`,
				`After ${read} records on ${pageNumber} pages the listing was stopped so that it cannot run on without end. Try again later.`,
			);
		}
		if (read > MAX_LISTING_RECORDS) {
			throw listingStopped(
				this.ctx,
				this.req,
				`Cloud4Wi sent more than ${MAX_LISTING_RECORDS.toLocaleString('en-US')} records for one list`,
				`The listing was stopped after ${pageNumber} pages so that it cannot run on without end and fill n8n's memory. Narrow the list with the filters (a date range, say), or turn off Return All and set a Limit.`,
			);
		}
		const records = freshIn(page, this.handed);
		// A full page of records all sent before, outside a reading again: the service is not moving on.
		if (records.length === 0 && answered.length === this.pageSize && this.rereads === 0) {
			throw repeatedPage(
				this.ctx,
				this.req,
				'Cloud4Wi sent records it had already sent',
				`Page ${pageNumber} held only records of earlier pages, so the listing was stopped and nothing is repeated. Cloud4Wi may be ignoring the scroll ID or offset: try again later.`,
			);
		}
		return records;
	}

	/** Readies the next page; false when this one was the last (a scroll that ends short of its total fails). */
	moveOn(page: IDataObject[], answered: IDataObject[], body: IDataObject): boolean {
		const { paging } = this;
		const nextId = paging.style === 'scroll' ? scrollIdOf(body, paging.idField) : undefined;
		// How many the answers say there are: a scroll's totalCount, an offset list's count. A shorter page than asked
		// for is the last only when they say nothing: a service may cap the page size below ours.
		const expected = paging.style === 'offset' ? this.passCount : (totalOf(body) ?? this.announced);
		const got = paging.style === 'offset' ? this.seen : this.handed.readInPass;
		const lastPage =
			page.length === 0 ||
			(expected !== undefined ? got >= expected : answered.length < this.pageSize) ||
			(paging.style === 'scroll' && nextId === undefined);
		// A scroll that ends (no scroll id, or an empty page: expired, say) before the total it still announces.
		if (paging.style === 'scroll' && lastPage && expected !== undefined && got < expected) {
			throw listingStopped(
				this.ctx,
				this.req,
				`Cloud4Wi announced ${expected} records but ${nextId === undefined ? 'gave no scroll ID to read' : 'sent an empty page'} past ${got}`,
				'The listing was stopped rather than end short without saying so. Try again later.',
			);
		}
		if (lastPage) return false;
		this.checkPagesLeft(answered.length, expected, got);
		this.scrollId = nextId;
		// With one record a page, asking for the last one again would never move on.
		this.overlap = paging.style === 'offset' && answered.length > 1 ? answered[answered.length - 1] : undefined;
		return true;
	}

	/** Bounded in requests as in records: pages of a few records while far more are announced would take as many requests. */
	private checkPagesLeft(pageLength: number, expected: number | undefined, got: number): void {
		const pagesLeft = expected !== undefined ? Math.ceil((expected - got) / Math.max(1, pageLength)) : 1;
		if (this.pageNumber + pagesLeft > MAX_LISTING_PAGES) {
			throw listingStopped(
				this.ctx,
				this.req,
				`Cloud4Wi sends pages of ${pageLength} ${pageLength === 1 ? 'record' : 'records'}${expected !== undefined ? ` and announces ${expected}` : ''}: the listing would take more than ${MAX_LISTING_PAGES.toLocaleString('en-US')} requests`,
				`The listing was stopped after ${this.pageNumber} pages rather than run on for hours. Narrow the list with the filters (a date range, say), or turn off Return All and set a Limit.`,
			);
		}
	}
}

/** An answer's scroll id, under whichever name Cloud4Wi gives it: its docs use sId, sid and scrollId. */
function scrollIdOf(body: IDataObject, field: string): string | undefined {
	for (const name of [field, 'sId', 'sid', 'scrollId']) {
		const value = body[name];
		if (typeof value === 'string' && value !== '') return value;
	}
	return undefined;
}

/** All records (max undefined) or at most `max`, asking for no more than needed. */
export async function fetchRecords(
	this: Cloud4WiContext,
	req: ApiRequest,
	recordsKey: string,
	paging: Paging,
	max?: number,
): Promise<IDataObject[]> {
	const wanted = max ?? Number.POSITIVE_INFINITY;
	const collected: IDataObject[] = [];
	const largest = paging.style === 'offset' ? MAX_OFFSET_PAGE_SIZE : MAX_PAGE_SIZE;
	for await (const { records } of pagesOf.call(this, req, recordsKey, paging, Math.min(wanted, largest))) {
		collected.push(...records.slice(0, wanted - collected.length));
		if (collected.length >= wanted) break;
	}
	return collected;
}
