import { contactSubList } from './subList';

// The spec documents no paging for activities: one request, Limit applied to its records.
export const { description, execute } = contactSubList('getActivities', 'activities', 'activities', { style: 'none' });
