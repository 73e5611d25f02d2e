import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locationLocator, organizationIdField } from '../../shared/descriptions';
import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

export const option = { name: 'Delete', value: 'delete', action: 'Delete a location', description: 'Delete a venue' };

export const fields: INodeProperties[] = [organizationIdField, locationLocator(true, 'The location to delete')];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const locationId = input.id('locationId', 'Location');
	const { body, alreadyDeleted } = await cloud4WiApiRequest.call(this, {
		method: 'DELETE',
		path: apiPath`/v1/organizations/${organizationId}/locations/${locationId}`,
		itemIndex: input.itemIndex,
		notFound: `location "${locationId}" in organization "${organizationId}"`,
		scopes: 'organization_write',
	});
	// A delete whose answer was lost is tried again; its retry then finds the record gone.
	return [{ locationId, deleted: true, status: body.status ?? null, ...(alreadyDeleted ? { alreadyDeleted } : {}) }];
}

export const toolDescription =
	'Deletes one Cloud4Wi location (a venue): this cannot be undone. Needs the location ID. Returns locationId and deleted: true (alreadyDeleted: true when it was already gone). Only call it when the user clearly asked to delete this location.';
