import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { byDisplayName, hotspotLocator, locationLocator, organizationIdField } from '../../shared/descriptions';
import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';
import { ADDRESS_FIELDS, putAddress } from './address';

export const option = {
	name: 'Update',
	value: 'update',
	action: 'Update a hotspot',
	description: 'Change an access point',
};

// Router type, MAC address, identifier and SSID cannot change on update, so they are not offered.
export const fields: INodeProperties[] = [
	organizationIdField,
	hotspotLocator,
	{
		...locationLocator(false, 'Location of the hotspot. Leave empty to keep its current location.'),
		default: { mode: 'list', value: '' },
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: byDisplayName([
			{
				displayName: 'Country Code',
				name: 'country',
				type: 'string',
				default: '',
				placeholder: 'IT',
				description: 'ISO 3166-1 alpha-2 code of the country',
			},
			{ displayName: 'Description', name: 'description', type: 'string', default: '' },
			{
				displayName: 'Enabled',
				name: 'enabled',
				type: 'boolean',
				default: true,
				description: 'Whether the hotspot is enabled',
			},
			{
				displayName: 'Latitude',
				name: 'latitude',
				type: 'number',
				typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 6 },
				default: 0,
			},
			{
				displayName: 'Longitude',
				name: 'longitude',
				type: 'number',
				typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 6 },
				default: 0,
			},
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			{
				displayName: 'Use Location Address',
				name: 'addressAsLocation',
				type: 'boolean',
				default: true,
				description:
					'Whether the hotspot takes the address of its location; when off, give country, address, city, state and ZIP code',
			},
			...ADDRESS_FIELDS.map(
				([name, displayName]): INodeProperties => ({ displayName, name, type: 'string', default: '' }),
			),
		]),
	},
];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const hotspotId = input.id('hotspotId', 'Hotspot');
	const fields = input.collection('updateFields');
	const body: IDataObject = { organizationId, organziationId: organizationId };
	if (fields.name !== undefined) body.name = input.required(fields.name, 'Update Fields > Name'); // never blanked
	if (fields.description !== undefined)
		body.description = input.text(fields.description, 'Update Fields > Description');
	if (fields.enabled !== undefined) body.enabled = input.onOff(fields.enabled, 'Update Fields > Enabled');
	if (fields.latitude !== undefined) body.latitude = input.coordinate(fields.latitude, 'Update Fields > Latitude', 90);
	if (fields.longitude !== undefined)
		body.longitude = input.coordinate(fields.longitude, 'Update Fields > Longitude', 180);
	if (fields.addressAsLocation !== undefined)
		body.addressAsLocation = input.onOff(fields.addressAsLocation, 'Update Fields > Use Location Address');
	putAddress(input, fields, body, body.addressAsLocation === false, 'Update Fields > ');

	// The API requires the location on every update; when none is given, keep the current one.
	const typedLocation = input.string('locationId', 'Location');
	const changed = Object.keys(body).some((key) => key !== 'organizationId' && key !== 'organziationId');
	input.changeNeeded(changed || !!typedLocation, fields, 'add a field to change, or a Location');
	let locationId = typedLocation ? input.id('locationId', 'Location', typedLocation) : '';
	if (!locationId) {
		const { body: current } = await cloud4WiApiRequest.call(this, {
			method: 'GET',
			path: apiPath`/v3/hotspots/${hotspotId}`,
			itemIndex: input.itemIndex,
			notFound: `hotspot "${hotspotId}"`,
			scopes: 'organization_read, hotspots_read',
		});
		locationId = String(((current.hotspot ?? {}) as IDataObject).venueId ?? '');
	}
	body.locationId = locationId;

	const { body: answer } = await cloud4WiApiRequest.call(this, {
		method: 'PUT',
		path: apiPath`/v3/hotspots/${hotspotId}`,
		body,
		itemIndex: input.itemIndex,
		notFound: `hotspot "${hotspotId}"`,
		scopes: 'hotspots_write, organization_write',
	});
	return [answer];
}

export const toolDescription =
	'Changes one Cloud4Wi hotspot (WiFi access point): name, description, location, enabled, coordinates or address (country as an ISO 3166-1 alpha-2 code, e.g. IT). Needs the hotspot ID; fields not given keep their value. Sending the same change twice is harmless. Returns the updated hotspot.';
