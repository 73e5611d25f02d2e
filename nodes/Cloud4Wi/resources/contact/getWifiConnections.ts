import { contactSubList } from './subList';

// Pages with the scroll id (`sid`/`sId`) like the organization-wide list.
export const { option, fields, execute, toolDescription } = contactSubList({
	option: { name: 'Get WiFi Connections', value: 'getWifiConnections', action: 'Get wifi connections of a contact' },
	records: 'the WiFi sessions of a contact with duration, traffic and access point',
	list: ['accountings', 'connections', { style: 'scroll', idParam: 'sid', idField: 'sId' }],
});
