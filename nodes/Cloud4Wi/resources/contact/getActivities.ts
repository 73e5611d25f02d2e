import { contactSubList } from './subList';

export const option = {
	name: 'Get Activities',
	value: 'getActivities',
	action: 'Get activities of a contact',
	description: 'Get the surveys, messages and other content interactions of a contact',
};

// The spec documents no paging for activities: one request, Limit applied to its records.
export const { fields, execute } = contactSubList('activities', 'activities', { style: 'none' });
