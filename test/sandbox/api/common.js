'use strict';
// Guards and paging shared by the endpoint handlers.

const { intParam, notFound } = require('../lib/params');
const { isoUtc } = require('../lib/time');

/** Every response that carries `generated` holds the response time as a string. */
const generated = (state) => isoUtc(state.clock.now());

function requireOrganization(state, id) {
	if (id !== state.organizationId) throw notFound(`Organization not found: ${id}`);
}

/** The seeded index of a live contact. */
function requireContact(state, cid) {
	const index = state.contacts.indexOf(cid);
	if (!state.contacts.isLive(index)) throw notFound(`Contact not found: ${cid}`);
	return index;
}

function requireLocation(state, id, organizationId) {
	const location = state.data.locations.find((l) => l.id === id && (!organizationId || l.organziationId === organizationId));
	if (!location) throw notFound(`Location not found: ${id}`);
	return location;
}

/** `size` of the scrolled lists: 1 to 10000. */
const pageSize = (query) => intParam(query, 'size', { min: 1, max: 10_000 });

/**
 * Next page of a scrolled list: resumes the scroll named by query[param], or opens one on a
 * snapshot of select() (filters are read only then, as the service ignores them while scrolling).
 */
function scrollPage(state, { kind, query, param, select, defaultSize = 100 }) {
	const requestedSize = pageSize(query);
	const scroll = query[param]
		? state.scrolls.resume(kind, query[param], param, requestedSize)
		: state.scrolls.open(kind, select(), requestedSize ?? defaultSize);
	return { scroll, page: state.scrolls.nextPage(scroll) };
}

module.exports = { generated, requireOrganization, requireContact, requireLocation, pageSize, scrollPage };
