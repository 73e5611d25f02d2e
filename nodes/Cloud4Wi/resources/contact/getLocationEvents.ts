import { contactSubList } from './subList';

// The spec documents no paging for location events: one request, Limit applied to its records.
export const { option, fields, execute, toolDescription } = contactSubList({
	option: { name: 'Get Location Events', value: 'getLocationEvents', action: 'Get location events of a contact' },
	records: 'the visits and WiFi connections of a contact with date and duration',
	list: ['events', 'events', { style: 'none' }],
});
