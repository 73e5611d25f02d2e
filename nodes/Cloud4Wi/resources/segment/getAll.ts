import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getManyFields, organizationIdField } from '../../shared/descriptions';
import { fetchRecords } from '../../shared/paginate';
import { apiPath } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

export const description = updateDisplayOptions({ show: { resource: ['segment'], operation: ['getAll'] } }, [
	organizationIdField,
	...getManyFields(),
]);

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const max = input.limit();
	return await fetchRecords.call(
		this,
		{
			method: 'GET',
			path: apiPath`/v2/segments/organizations/${organizationId}`,
			itemIndex: input.itemIndex,
			notFound: `organization "${organizationId}"`,
			scopes: 'organization_read, segments_read',
		},
		'segments',
		{ style: 'none' },
		max,
	);
}

export const toolDescription =
	'Lists the audience segments of the Cloud4Wi organization: id, name, description, audience size and last run. Use a segment id to filter contacts by segment. Returns { records, hasMore, note }: a few segments; when hasMore is true, there are more.';
