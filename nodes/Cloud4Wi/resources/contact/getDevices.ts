import { contactSubList } from './subList';

// The spec documents no paging for devices: one request, Limit applied to its records.
export const { description, execute } = contactSubList('getDevices', 'devices', 'devices', { style: 'none' });
