'use strict';
// Event lists of an organization (with scroll) and of one contact.

const { conflict, boolParam, listParam, enumParam, dateRangeParams } = require('../lib/params');
const { FILTERABLE_KINDS, eventTiming } = require('../data/events');
const { generated, requireOrganization, requireContact, pageSize, scrollPage } = require('./common');

/** Filters and order shared by both lists; invalid values -> 409. */
function eventQuery(query) {
	const kinds = listParam(query, 'events');
	const unknown = kinds?.find((kind) => !FILTERABLE_KINDS.includes(kind));
	if (unknown) throw conflict(`Invalid parameter events: '${unknown}' is not one of ${FILTERABLE_KINDS.join(', ')}`);
	return {
		kinds: kinds && new Set(kinds),
		...dateRangeParams(query, 'dateStart', 'dateEnd'),
		sortBy: enumParam(query, 'sortBy', ['businessTime', 'utcTime'], 'businessTime'),
		reverse: boolParam(query, 'sortReverse') ?? false,
	};
}

/**
 * Events visible on the sandbox clock that match; utcTime orders by createdAt, businessTime by
 * createdAtLocal (wall time at the venue); ties by id ascending.
 */
function selectEvents(state, { kinds, start, end, sortBy, reverse }, customerId) {
	const now = state.clock.now();
	const rows = [];
	for (const event of state.data.events) {
		const { at, visibleAt } = eventTiming(event);
		if (visibleAt > now) continue;
		if (customerId !== undefined && event.customerId !== customerId) continue;
		if (kinds && !kinds.has(event.event.type)) continue;
		if ((start !== undefined && at < start) || (end !== undefined && at > end)) continue;
		rows.push({ event, key: sortBy === 'utcTime' ? at : event.when.createdAtLocal });
	}
	const direction = reverse ? -1 : 1;
	rows.sort(
		(a, b) =>
			(a.key < b.key ? -direction : a.key > b.key ? direction : 0) ||
			(a.event.event.id < b.event.event.id ? -1 : a.event.event.id > b.event.event.id ? 1 : 0),
	);
	return rows.map((row) => row.event);
}

const reply = (state, events, scrollId) => ({
	body: { generated: generated(state), status: 'ok', count: events.length, events, ...(scrollId ? { scrollId } : {}) },
});

function listForOrganization({ state, params, query }) {
	requireOrganization(state, params.organizationId);
	if (query.scrollId || boolParam(query, 'enableScroll')) {
		const { scroll, page } = scrollPage(state, {
			kind: 'events',
			query,
			param: 'scrollId',
			select: () => selectEvents(state, eventQuery(query)),
		});
		return reply(state, page, scroll.id);
	}
	const size = pageSize(query) ?? 100;
	return reply(state, selectEvents(state, eventQuery(query)).slice(0, size));
}

/** No scroll here: the first `size` events of the contact. */
function listForContact({ state, params, query }) {
	requireOrganization(state, params.organizationId);
	requireContact(state, params.contactId);
	const size = pageSize(query) ?? 100;
	return reply(state, selectEvents(state, eventQuery(query), params.contactId).slice(0, size));
}

module.exports = { listForOrganization, listForContact };
