import type { IDataObject } from 'n8n-workflow';

import { FILTERABLE_EVENT_KINDS } from './constants';

/** The kind of an event in either shape the API returns (live: `event.type`, schema: `type`). */
function eventKind(record: IDataObject): string | undefined {
	const inner = record.event as IDataObject | undefined;
	const kind = inner?.type ?? record.type;
	return typeof kind === 'string' ? kind : undefined;
}

export function eventId(record: IDataObject): string | undefined {
	const inner = record.event as IDataObject | undefined;
	const id = inner?.id ?? record.id;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * Kinds chosen by the user: sent to the server when it can filter them all, and always checked here too,
 * so no other kind leaks through. No kinds means every kind.
 */
export function kindFilter(kinds: string[]): { query?: string; keep: (record: IDataObject) => boolean } {
	if (kinds.length === 0) return { keep: () => true };
	const chosen = new Set(kinds);
	const serverCan = kinds.every((k) => (FILTERABLE_EVENT_KINDS as readonly string[]).includes(k));
	return {
		query: serverCan ? kinds.join(',') : undefined,
		keep: (record) => chosen.has(eventKind(record) ?? ''),
	};
}

/** A time Cloud4Wi gives (ISO 8601, UTC) in ms: one written without a zone is UTC too, not n8n's local time. */
export function utcMs(value: unknown): number {
	const text = typeof value === 'string' ? value.trim() : '';
	const zoneless = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/.test(text);
	return Date.parse(zoneless ? `${text.replace(' ', 'T')}Z` : text);
}
