import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { hotspotLocator } from '../../shared/descriptions';
import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

export const option = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a hotspot',
	description: 'Delete an access point',
};

export const fields: INodeProperties[] = [hotspotLocator];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const hotspotId = input.id('hotspotId', 'Hotspot');
	const { body, alreadyDeleted } = await cloud4WiApiRequest.call(this, {
		method: 'DELETE',
		path: apiPath`/v3/hotspots/${hotspotId}`,
		itemIndex: input.itemIndex,
		notFound: `hotspot "${hotspotId}"`,
		scopes: 'hotspots_write, organization_write',
	});
	// A delete whose answer was lost is tried again; its retry then finds the record gone.
	return [{ hotspotId, deleted: true, status: body.status ?? null, ...(alreadyDeleted ? { alreadyDeleted } : {}) }];
}

export const toolDescription =
	'Deletes one Cloud4Wi hotspot (WiFi access point): this cannot be undone. Needs the hotspot ID. Returns hotspotId and deleted: true (alreadyDeleted: true when it was already gone). Only call it when the user clearly asked to delete this hotspot.';
