'use strict';
// WiFi connections (accountings) of an organization and of one contact, scrolled by sid.

const { dateRangeParams, timeZoneParam } = require('../lib/params');
const { generated, requireOrganization, requireContact, scrollPage } = require('./common');

const byStart = (a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0);

/** dateStart/dateEnd filter on start; date-times must carry a zone, date-only values use timeZone (default UTC). */
function selectConnections(state, query) {
	const zone = timeZoneParam(query, 'timeZone') ?? 'UTC';
	const { start, end } = dateRangeParams(query, 'dateStart', 'dateEnd', { requireOffset: true, zone });
	const { locationId, hotspotId } = query;
	return state.data.connections
		.filter((c) => {
			const at = Date.parse(c.start);
			return (
				(!locationId || c.locationId === locationId) &&
				(!hotspotId || c.hotspotId === hotspotId) &&
				(start === undefined || at >= start) &&
				(end === undefined || at <= end)
			);
		})
		.sort(byStart);
}

function listForOrganization({ state, params, query }) {
	requireOrganization(state, params.organizationId);
	const { scroll, page } = scrollPage(state, { kind: 'accountings', query, param: 'sid', select: () => selectConnections(state, query) });
	return { body: { generated: generated(state), sId: scroll.id, count: page.length, connections: page } };
}

/** The contact-level record drops the organization fields and names the access point apName/apId. */
const contactLevel = ({ customerId, organizationId, hotspotName, hotspotIdentifier, hotspotId, ...rest }) => ({
	...rest,
	apName: hotspotName,
	apId: hotspotId,
});

function listForContact({ state, params, query }) {
	requireContact(state, params.contactId);
	const cid = params.contactId;
	const { scroll, page } = scrollPage(state, {
		kind: `accountings:${cid}`, // a contact's scroll id cannot page another contact
		query,
		param: 'sid',
		select: () => state.data.connections.filter((c) => c.customerId === cid).sort(byStart),
	});
	return { body: { generated: generated(state), sId: scroll.id, count: page.length, connections: page.map(contactLevel) } };
}

module.exports = { listForOrganization, listForContact };
