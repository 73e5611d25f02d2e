import { contactSubList } from './subList';

// The spec documents no paging for devices: one request, Limit applied to its records.
export const { option, fields, execute, toolDescription } = contactSubList({
	option: { name: 'Get Devices', value: 'getDevices', action: 'Get devices of a contact' },
	records: 'the devices of a contact with MAC address and connection counts',
	list: ['devices', 'devices', { style: 'none' }],
});
