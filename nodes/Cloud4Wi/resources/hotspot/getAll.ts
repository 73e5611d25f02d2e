import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { filtersField, getManyFields, organizationIdField } from '../../shared/descriptions';
import { fetchRecords } from '../../shared/paginate';
import { apiPath } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

const TEXT_FILTERS = [
	['name', 'Name'],
	['macAddress', 'MAC Address'],
	['hotspotIdentifier', 'Hotspot Identifier'],
];

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many hotspots',
	description: 'Get the access points of an organization',
};

export const fields: INodeProperties[] = [
	organizationIdField,
	...getManyFields(),
	filtersField([
		{
			displayName: 'Created After',
			name: 'creationDateStart',
			type: 'string',
			default: '',
			placeholder: 'YYYY-MM-DD',
			description: 'Only hotspots created after this date',
		},
		{
			displayName: 'Created Before',
			name: 'creationDateStop',
			type: 'string',
			default: '',
			placeholder: 'YYYY-MM-DD',
			description: 'Only hotspots created before this date',
		},
		{
			displayName: 'Deleted',
			name: 'deleted',
			type: 'boolean',
			default: true,
			description: 'Whether to return deleted hotspots instead of live ones (the API lists one or the other)',
		},
		{ displayName: 'Hotspot Identifier', name: 'hotspotIdentifier', type: 'string', default: '' },
		{
			displayName: 'Location Name or ID',
			name: 'venueId',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getLocations' },
			default: '',
			description:
				'Only hotspots of this location. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{ displayName: 'MAC Address', name: 'macAddress', type: 'string', default: '' },
		{ displayName: 'Name', name: 'name', type: 'string', default: '' },
	]),
];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const max = input.limit();
	const filters = input.collection('filters');
	const query: IDataObject = {};
	if (input.given(filters.creationDateStart, 'Filters > Created After'))
		query.creationDateStart = input.dateOnly(filters.creationDateStart, 'Filters > Created After');
	if (input.given(filters.creationDateStop, 'Filters > Created Before'))
		query.creationDateStop = input.dateOnly(filters.creationDateStop, 'Filters > Created Before');
	input.range(query.creationDateStart as string, query.creationDateStop as string, [
		'Filters > Created After',
		'Created Before',
	]);
	for (const [name, label] of TEXT_FILTERS)
		if (input.given(filters[name], `Filters > ${label}`))
			query[name] = input.text(filters[name], `Filters > ${label}`).trim();
	if (input.given(filters.venueId, 'Filters > Location'))
		query.venueId = input.id('venueId', 'Filters > Location', filters.venueId);
	if (filters.deleted !== undefined) query.deleted = input.onOff(filters.deleted, 'Filters > Deleted');

	return await fetchRecords.call(
		this,
		{
			method: 'GET',
			path: apiPath`/v3/hotspots/organizations/${organizationId}`,
			query,
			itemIndex: input.itemIndex,
			notFound: `organization "${organizationId}"`,
			scopes: 'organization_read, hotspots_read',
		},
		'hotspots',
		{ style: 'offset' },
		max,
	);
}

export const toolDescription =
	'Lists the Cloud4Wi hotspots (WiFi access points) of the organization. Filters, when offered: name, MAC address, hotspot identifier, location ID, created after/before (ISO 8601). Returns { records, hasMore, note }: a few hotspots; when hasMore is true, more match: narrow the filters.';
