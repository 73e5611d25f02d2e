import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { byDisplayName, locationLocator, organizationIdField } from '../../shared/descriptions';
import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';
import { ADDRESS, categoryField, putOptional, tagsField } from './fields';

export const option = { name: 'Update', value: 'update', action: 'Update a location', description: 'Change a venue' };

export const fields: INodeProperties[] = [
	organizationIdField,
	locationLocator(true, 'The location to update'),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: byDisplayName([
			categoryField,
			{
				displayName: 'Country Code',
				name: 'country',
				type: 'string',
				default: '',
				placeholder: 'IT',
				description: 'ISO 3166-1 alpha-2 code of the country',
			},
			{ displayName: 'Description', name: 'description', type: 'string', default: '' },
			{ displayName: 'External ID', name: 'externalId', type: 'string', default: '' },
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			tagsField,
			{
				displayName: 'Time Zone',
				name: 'timezone',
				type: 'string',
				default: '',
				placeholder: 'Europe/Rome',
				description: 'Zone name in Area/City form',
			},
			...ADDRESS.map(([name, displayName]): INodeProperties => ({ displayName, name, type: 'string', default: '' })),
		]),
	},
];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const locationId = input.id('locationId', 'Location');
	const fields = input.collection('updateFields');
	const body: IDataObject = {};
	putOptional(input, fields, body, 'Update Fields > ');
	input.changeNeeded(Object.keys(body).length > 0, fields, 'add at least one field to change');

	const { body: answer } = await cloud4WiApiRequest.call(this, {
		method: 'PUT',
		path: apiPath`/v1/organizations/${organizationId}/locations/${locationId}`,
		body,
		itemIndex: input.itemIndex,
		notFound: `location "${locationId}" in organization "${organizationId}"`,
		scopes: 'organization_write',
	});
	return [answer];
}

export const toolDescription =
	'Changes one Cloud4Wi location (a venue): name, description, address, city, state, ZIP code, country (ISO 3166-1 alpha-2, e.g. IT), time zone (Area/City, e.g. Europe/Rome), category, tags or external ID. Needs the location ID; fields not given keep their value. Sending the same change twice is harmless. Returns the updated location.';
