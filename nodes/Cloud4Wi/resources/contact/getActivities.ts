import { contactSubList } from './subList';

export const option = {
	name: 'Get Activities',
	value: 'getActivities',
	action: 'Get activities of a contact',
	description: 'Get the surveys, messages and other content interactions of a contact',
};

// The spec documents no paging for activities: one request, Limit applied to its records.
export const { fields, execute } = contactSubList('activities', 'activities', { style: 'none' });

export const toolDescription =
	'Lists the surveys, messages and other content interactions of one Cloud4Wi contact. Needs the contact ID (cid). Returns { records, hasMore, note }: up to the tool limit of activity records; hasMore says whether there are more than given.';
