import { contactSubList } from './subList';

export const option = {
	name: 'Get Devices',
	value: 'getDevices',
	action: 'Get devices of a contact',
	description: 'Get the devices of a contact with MAC address and connection counts',
};

// The spec documents no paging for devices: one request, Limit applied to its records.
export const { fields, execute } = contactSubList('devices', 'devices', { style: 'none' });

export const toolDescription =
	'Lists the devices of one Cloud4Wi contact, with MAC address and connection counts. Needs the contact ID (cid). Returns { records, hasMore, note }: up to the tool limit of devices; hasMore says whether there are more than given.';
