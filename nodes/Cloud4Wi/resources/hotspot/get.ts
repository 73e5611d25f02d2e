import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { hotspotLocator } from '../../shared/descriptions';
import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

export const option = { name: 'Get', value: 'get', action: 'Get a hotspot', description: 'Get an access point by ID' };

export const fields: INodeProperties[] = [hotspotLocator];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const hotspotId = input.id('hotspotId', 'Hotspot');
	const { body } = await cloud4WiApiRequest.call(this, {
		method: 'GET',
		path: apiPath`/v3/hotspots/${hotspotId}`,
		itemIndex: input.itemIndex,
		notFound: `hotspot "${hotspotId}"`,
		scopes: 'organization_read, hotspots_read',
	});
	return [(body.hotspot as IDataObject | undefined) ?? body];
}

export const toolDescription =
	'Gets one Cloud4Wi hotspot (WiFi access point) by its ID; to find one by name or MAC address, use the tool that gets many hotspots. Returns the hotspot: name, location, router type, MAC address, coordinates and address.';
