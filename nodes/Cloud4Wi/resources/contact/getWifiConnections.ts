import { contactSubList } from './subList';

// Pages with the scroll id (`sid`/`sId`) like the organization-wide list.
export const { description, execute } = contactSubList('getWifiConnections', 'accountings', 'connections', {
	style: 'scroll',
	idParam: 'sid',
	idField: 'sId',
});

export const toolDescription =
	'Lists the WiFi sessions of one Cloud4Wi contact, with start and end time (ISO 8601), duration, traffic and access point. Needs the contact ID (cid). Returns { records, hasMore, note }: up to the tool limit of sessions; hasMore says whether there are more than given.';
