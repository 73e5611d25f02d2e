import { contactSubList } from './subList';

// The spec documents no paging for activities: one request, Limit applied to its records.
export const { description, execute } = contactSubList('getActivities', 'activities', 'activities', { style: 'none' });

export const toolDescription =
	'Lists the surveys, messages and other content interactions of one Cloud4Wi contact. Needs the contact ID (cid). Returns { records, hasMore, note }: up to the tool limit of activity records; hasMore says whether there are more than given.';
