import { contactSubList } from './subList';

// The spec documents no paging for location events: one request, Limit applied to its records.
export const { description, execute } = contactSubList('getLocationEvents', 'events', 'events', { style: 'none' });
