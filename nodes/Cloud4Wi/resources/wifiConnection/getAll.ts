import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { filtersField, getManyFields, organizationIdField } from '../../shared/descriptions';
import { fetchRecords } from '../../shared/paginate';
import { apiPath } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many wifi connections',
	description: 'Get the WiFi sessions of an organization with duration, traffic, location and hotspot',
};

export const fields: INodeProperties[] = [
	organizationIdField,
	...getManyFields(),
	filtersField([
		{
			displayName: 'From',
			name: 'dateStart',
			type: 'dateTime',
			default: '',
			description: 'Only connections at or after this time',
		},
		{
			displayName: 'Hotspot Name or ID',
			name: 'hotspotId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getHotspots' },
			default: '',
			description:
				'Only connections through this hotspot. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Location Name or ID',
			name: 'locationId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getLocations' },
			default: '',
			description:
				'Only connections at this location. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Time Zone',
			name: 'timeZone',
			type: 'string',
			default: '',
			placeholder: 'Europe/Rome',
			description: 'Time zone of the business times in the answer',
		},
		{
			displayName: 'To',
			name: 'dateEnd',
			type: 'dateTime',
			default: '',
			description: 'Only connections at or before this time. A date alone includes that whole day.',
		},
	]),
];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const max = input.limit();
	const filters = input.collection('filters');
	const query: IDataObject = {};
	// The API wants a time zone on dates; ISO instants in UTC carry one.
	if (input.given(filters.dateStart, 'Filters > From'))
		query.dateStart = input.dateTime(filters.dateStart, 'Filters > From');
	if (input.given(filters.dateEnd, 'Filters > To')) query.dateEnd = input.dateTimeEnd(filters.dateEnd, 'Filters > To');
	input.range(query.dateStart as string, query.dateEnd as string, ['Filters > From', 'To']);
	if (input.given(filters.locationId, 'Filters > Location'))
		query.locationId = input.id('locationId', 'Filters > Location', filters.locationId);
	if (input.given(filters.hotspotId, 'Filters > Hotspot'))
		query.hotspotId = input.id('hotspotId', 'Filters > Hotspot', filters.hotspotId);
	if (input.given(filters.timeZone, 'Filters > Time Zone'))
		query.timeZone = input.timezone(filters.timeZone, 'Filters > Time Zone');

	return await fetchRecords.call(
		this,
		{
			method: 'GET',
			path: apiPath`/v2/organizations/${organizationId}/accountings`,
			query,
			itemIndex: input.itemIndex,
			notFound: `organization "${organizationId}"`,
			scopes: 'organization_read, customer_read',
		},
		'connections',
		{ style: 'scroll', idParam: 'sid', idField: 'sId' },
		max,
	);
}

export const toolDescription =
	'Lists WiFi sessions of the Cloud4Wi organization, with contact, hotspot, location, start and end time (ISO 8601), duration and traffic. Filters, when offered: from and to (ISO 8601; a date alone means that whole day), location ID, hotspot ID. Returns { records, hasMore, note }: a few sessions; when hasMore is true, more match: narrow the time range.';
