import { contactSubList } from './subList';

export const option = {
	name: 'Get WiFi Connections',
	value: 'getWifiConnections',
	action: 'Get wifi connections of a contact',
	description: 'Get the WiFi sessions of a contact with duration, traffic and access point',
};

// Pages with the scroll id (`sid`/`sId`) like the organization-wide list.
export const { fields, execute } = contactSubList('accountings', 'connections', {
	style: 'scroll',
	idParam: 'sid',
	idField: 'sId',
});

export const toolDescription =
	'Lists the WiFi sessions of one Cloud4Wi contact, with start and end time (ISO 8601), duration, traffic and access point. Needs the contact ID (cid). Returns { records, hasMore, note }: up to the tool limit of sessions; hasMore says whether there are more than given.';
