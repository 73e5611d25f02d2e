import { contactSubList } from './subList';

// The spec documents no paging for activities: one request, Limit applied to its records.
export const { option, fields, execute, toolDescription } = contactSubList({
	option: { name: 'Get Activities', value: 'getActivities', action: 'Get activities of a contact' },
	records: 'the surveys, messages and other content interactions of a contact',
	list: ['activities', 'activities', { style: 'none' }],
});
