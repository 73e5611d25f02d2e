import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { EVENT_KIND_OPTIONS } from '../../shared/constants';
import { filtersField } from '../../shared/descriptions';
import type { ItemInput } from '../../shared/input';

export const eventFilters: INodeProperties = filtersField([
	{
		displayName: 'Event Kinds',
		name: 'events',
		type: 'multiOptions',
		options: EVENT_KIND_OPTIONS,
		default: [],
		description: 'Only events of these kinds; none means all',
	},
	{
		displayName: 'From',
		name: 'dateStart',
		type: 'dateTime',
		default: '',
		description: 'Only events at or after this time',
	},
	{
		displayName: 'To',
		name: 'dateEnd',
		type: 'dateTime',
		default: '',
		description: 'Only events at or before this time. A date alone includes that whole day.',
	},
	{
		displayName: 'Sort By',
		name: 'sortBy',
		type: 'options',
		options: [
			{ name: 'Business (Local) Time', value: 'businessTime' },
			{ name: 'UTC Time', value: 'utcTime' },
		],
		default: 'businessTime',
	},
	{
		displayName: 'Newest First',
		name: 'sortReverse',
		type: 'boolean',
		default: true,
		description: 'Whether to reverse the order',
	},
]);

/** Query of an event list from its Filters; the kinds also come back for the local check. */
export function eventQuery(input: ItemInput): { query: IDataObject; kinds: string[] } {
	const filters = input.collection('filters');
	const query: IDataObject = {};
	if (input.given(filters.dateStart, 'Filters > From'))
		query.dateStart = input.dateTime(filters.dateStart, 'Filters > From');
	if (input.given(filters.dateEnd, 'Filters > To')) query.dateEnd = input.dateTimeEnd(filters.dateEnd, 'Filters > To');
	input.range(query.dateStart as string, query.dateEnd as string, ['Filters > From', 'To']);
	if (filters.sortBy) query.sortBy = input.oneOf(filters.sortBy, 'Filters > Sort By', ['businessTime', 'utcTime']);
	if (filters.sortReverse !== undefined) query.sortReverse = input.onOff(filters.sortReverse, 'Filters > Newest First');
	const kinds = input.list(filters.events, 'Filters > Event Kinds');
	return { query, kinds };
}
