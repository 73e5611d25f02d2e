import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locationLocator } from '../../shared/descriptions';
import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

export const option = { name: 'Get', value: 'get', action: 'Get a location', description: 'Get a venue by ID' };

export const fields: INodeProperties[] = [locationLocator(true, 'The location to get')];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const locationId = input.id('locationId', 'Location');
	const { body } = await cloud4WiApiRequest.call(this, {
		method: 'GET',
		path: apiPath`/v1/locations/${locationId}`,
		itemIndex: input.itemIndex,
		notFound: `location "${locationId}"`,
		scopes: 'organization_read',
	});
	return [(body.location as IDataObject | undefined) ?? body];
}

export const toolDescription =
	'Gets one Cloud4Wi location (a venue) by its ID; to find one by name, use the tool that gets many locations. Returns the location: name, address, country, time zone, category, tags and profile IDs.';
