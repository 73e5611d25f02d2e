import type { IDataObject, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ApiRequest, Cloud4WiContext } from './transport';
import { cloud4WiApiRequest } from './transport';

/** The largest page the API allows; Return All uses it so N records cost ceil(N / 10,000) requests. */
export const MAX_PAGE_SIZE = 10_000;
/** `limit`/`offset` lists (hotspots) document no maximum; 1,000 is a page such lists commonly accept. */
export const MAX_OFFSET_PAGE_SIZE = 1_000;

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

/** What tells a page from another cheaply: its size and its first and last records, by id, else by whole content. */
function pageMark(page: IDataObject[]): string {
	const identity = (record: unknown): string => {
		if (record === null || typeof record !== 'object') return JSON.stringify(record) ?? '';
		const r = record as IDataObject;
		const id = r.id ?? r.cid ?? ((r.event ?? {}) as IDataObject).id;
		return typeof id === 'string' || typeof id === 'number' ? `id ${id}` : JSON.stringify(r);
	};
	return `${page.length}\n${identity(page[0])}\n${identity(page[page.length - 1])}`;
}

/** Errors that stopped a listing because Cloud4Wi sent a page it had sent before. */
const repeatedPages = new WeakSet<Error>();
export function isRepeatedPage(error: unknown): boolean {
	return error instanceof Error && repeatedPages.has(error);
}

function listingStopped(ctx: Cloud4WiContext, req: ApiRequest, message: string, description: string): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, { message, description, itemIndex: req.itemIndex });
}

/**
 * The one place paging happens: yields each page (its records and the whole answer), following the endpoint's paging until the records
 * run out, and never asks for a trailing empty page when the answer already says it was the last. A page that repeats an earlier one
 * (a service ignoring the scroll id or offset), or more records than the first `totalCount` and a page, stop the listing with an
 * error before that page is handed on, so no record comes out twice and no listing runs without end.
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
	let scrollId: string | undefined;
	let seen = 0;
	let announced: number | undefined;
	const marks = new Map<string, number>(); // page mark -> page number, one short string per page
	for (let pageNumber = 1; ; pageNumber++) {
		const query: IDataObject = { ...req.query };
		if (paging.style === 'offset') {
			Object.assign(query, { limit: pageSize, offset: seen });
		} else {
			Object.assign(query, { size: pageSize }, scrollId ? { [paging.idParam]: scrollId } : paging.open);
		}
		const { body } = await cloud4WiApiRequest.call(this, { ...req, query });
		const page = recordsOf(body, recordsKey);
		const total = typeof body.totalCount === 'number' ? body.totalCount : undefined;
		seen += page.length;

		if (page.length > 0) {
			const mark = pageMark(page);
			const earlier = marks.get(mark);
			if (earlier !== undefined) {
				const error = listingStopped(
					this,
					req,
					'Cloud4Wi sent the same page again',
					`Page ${pageNumber} held the same records as page ${earlier}, so the listing was stopped and nothing is repeated. Cloud4Wi may be ignoring the scroll ID or offset: try again later.`,
				);
				repeatedPages.add(error);
				throw error;
			}
			marks.set(mark, pageNumber);
		}
		// A scroll is a snapshot: the first count, plus a page for records added meanwhile, is the most there can be.
		announced ??= total;
		if (announced !== undefined && seen > announced + pageSize) {
			throw listingStopped(
				this,
				req,
				`Cloud4Wi sent more records than the ${announced} it announced`,
				`After ${seen} records on ${pageNumber} pages the listing was stopped so that it cannot run on without end. Try again later.`,
			);
		}
		yield { records: page, body };

		const nextId = paging.style === 'scroll' ? body[paging.idField] : undefined;
		const lastPage =
			page.length < pageSize ||
			(total !== undefined && seen >= total) ||
			(paging.style === 'scroll' && (typeof nextId !== 'string' || nextId === ''));
		if (lastPage) return;
		if (typeof nextId === 'string') scrollId = nextId;
	}
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
