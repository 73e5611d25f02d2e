import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

export const option = {
	name: 'Get by Identifier',
	value: 'getByIdentifier',
	action: 'Get a hotspot by identifier',
	description: 'Get an access point by the identifier set in the dashboard',
};

export const fields: INodeProperties[] = [
	{
		displayName: 'Hotspot Identifier',
		name: 'hotspotIdentifier',
		type: 'string',
		default: '',
		required: true,
		description: 'The identifier configured for the hotspot in the Cloud4Wi dashboard',
	},
];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const identifier = input.id('hotspotIdentifier', 'Hotspot Identifier');
	const { body } = await cloud4WiApiRequest.call(this, {
		method: 'GET',
		path: apiPath`/v3/hotspots/identifier/${identifier}`,
		itemIndex: input.itemIndex,
		notFound: `hotspot with identifier "${identifier}"`,
		scopes: 'organization_read, hotspots_read',
	});
	return [(body.hotspot as IDataObject | undefined) ?? body];
}

export const toolDescription =
	'Gets one Cloud4Wi hotspot (WiFi access point) by the identifier set for it in the Cloud4Wi dashboard (not its ID). Returns the hotspot: id, name, location, router type, MAC address and address.';
