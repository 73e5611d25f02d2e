import { contactSubList } from './subList';

export const option = {
	name: 'Get Location Events',
	value: 'getLocationEvents',
	action: 'Get location events of a contact',
	description: 'Get the visits and WiFi connections of a contact with date and duration',
};

// The spec documents no paging for location events: one request, Limit applied to its records.
export const { fields, execute } = contactSubList('events', 'events', { style: 'none' });

export const toolDescription =
	'Lists the visits and WiFi connections of one Cloud4Wi contact at the venues, with location, date (ISO 8601) and duration. Needs the contact ID (cid). Returns { records, hasMore, note }: up to the tool limit of events; hasMore says whether there are more than given.';
