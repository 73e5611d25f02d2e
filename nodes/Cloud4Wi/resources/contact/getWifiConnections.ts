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
