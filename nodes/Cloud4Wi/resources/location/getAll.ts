import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { filtersField, getManyFields, organizationIdField } from '../../shared/descriptions';
import { fetchRecords } from '../../shared/paginate';
import { apiPath } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';
import { tagsField } from './fields';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many locations',
	description: 'Get the venues of an organization',
};

export const fields: INodeProperties[] = [
	organizationIdField,
	...getManyFields(),
	filtersField([{ ...tagsField, description: 'Only locations with any of these tags' }]),
];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const max = input.limit();
	const tags = input.listFilter(input.collection('filters').tags, 'Filters > Tags');
	return await fetchRecords.call(
		this,
		{
			method: 'GET',
			path: apiPath`/v1/organizations/${organizationId}/locations`,
			query: { tags: tags.join(',') },
			itemIndex: input.itemIndex,
			notFound: `organization "${organizationId}"`,
			scopes: 'organization_read',
		},
		'locations',
		{ style: 'none' },
		max,
	);
}

export const toolDescription =
	'Lists the Cloud4Wi locations (venues) of the organization, with id, name, address, country and time zone. Filter, when offered: tags. Returns { records, hasMore, note }: a few locations; when hasMore is true, more match: narrow the filters.';
