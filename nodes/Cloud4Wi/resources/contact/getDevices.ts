import { contactSubList } from './subList';

// The spec documents no paging for devices: one request, Limit applied to its records.
export const { description, execute } = contactSubList('getDevices', 'devices', 'devices', { style: 'none' });

export const toolDescription =
	'Lists the devices of one Cloud4Wi contact, with MAC address and connection counts. Needs the contact ID (cid). Returns { records, hasMore, note }: up to the tool limit of devices; hasMore says whether there are more than given.';
