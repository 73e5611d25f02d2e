import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { locationLocator, organizationIdField } from '../../shared/descriptions';
import { cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';
import { ADDRESS_FIELDS, addressFields, putAddress } from './address';

export const option = {
	name: 'Create',
	value: 'create',
	action: 'Create a hotspot',
	description: 'Add an access point to a location',
};

export const fields: INodeProperties[] = [
	organizationIdField,
	{ displayName: 'Name', name: 'name', type: 'string', default: '', required: true },
	locationLocator(true, 'The location (venue) the hotspot belongs to'),
	{
		displayName: 'Router Type',
		name: 'routerType',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. meraki',
		description:
			'Router maker or platform, as Cloud4Wi names it. It decides whether MAC address, identifier or SSID are needed.',
	},
	{
		displayName: 'Latitude',
		name: 'latitude',
		type: 'number',
		typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 6 },
		default: 0,
		required: true,
	},
	{
		displayName: 'Longitude',
		name: 'longitude',
		type: 'number',
		typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 6 },
		default: 0,
		required: true,
	},
	{
		displayName: 'MAC Address',
		name: 'macAddress',
		type: 'string',
		default: '',
		placeholder: 'AA:BB:CC:DD:EE:FF',
		description: 'MAC address of the access point; most router types need it',
	},
	{
		displayName: 'Use Location Address',
		name: 'addressAsLocation',
		type: 'boolean',
		default: true,
		description: 'Whether the hotspot takes the address, city, country, ZIP code and state of its location',
	},
	...addressFields({ addressAsLocation: [false] }),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{ displayName: 'Description', name: 'description', type: 'string', default: '' },
			{
				displayName: 'Hotspot Identifier',
				name: 'hotspotIdentifier',
				type: 'string',
				default: '',
				description: 'Identifier of the hotspot on the router platform, if the router type uses one',
			},
			{
				displayName: 'SSID',
				name: 'ssid',
				type: 'string',
				default: '',
				description: 'WiFi network name, if the router type uses one',
			},
		],
	},
];

const EXTRA_FIELDS = [
	['description', 'Description'],
	['hotspotIdentifier', 'Hotspot Identifier'],
	['ssid', 'SSID'],
];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const locationId = input.id('locationId', 'Location');
	const addressAsLocation = input.boolean('addressAsLocation', 'Use Location Address', true);
	const body: IDataObject = {
		// The spec's required list spells these differently from its properties; both are sent.
		organizationId,
		organziationId: organizationId,
		venueId: locationId,
		locationId,
		name: input.required(input.raw('name'), 'Name'),
		routerType: input.required(input.raw('routerType'), 'Router Type'),
		latitude: input.coordinate(input.raw('latitude'), 'Latitude', 90),
		longitude: input.coordinate(input.raw('longitude'), 'Longitude', 180),
		addressAsLocation,
	};
	const mac = input.string('macAddress', 'MAC Address');
	// The check accepts AABBCCDDEEFF and mixed separators; the API wants one separator, so send AA:BB:CC:DD:EE:FF.
	if (mac)
		body.macAddress = input
			.macAddress(mac, 'MAC Address')
			.replace(/[:-]/g, '')
			.toUpperCase()
			.replace(/(..)(?!$)/g, '$1:');
	if (!addressAsLocation) {
		const typed = Object.fromEntries(
			[['country', 'Country Code'], ...ADDRESS_FIELDS].map(([name, label]) => [name, input.string(name, label)]),
		);
		putAddress(input, typed, body, true);
	}
	const extra = input.collection('additionalFields');
	for (const [name, label] of EXTRA_FIELDS)
		if (extra[name]) body[name] = input.text(extra[name], `Additional Fields > ${label}`);

	const { body: answer } = await cloud4WiApiRequest.call(this, {
		method: 'POST',
		path: '/v3/hotspots',
		body,
		itemIndex: input.itemIndex,
		notFound: `location "${locationId}"`,
		scopes: 'hotspots_write, organization_write',
	});
	return [answer];
}

export const toolDescription =
	'Creates a Cloud4Wi hotspot (WiFi access point) at a location. Needs the name, the location ID, the router type, latitude and longitude, usually the MAC address, and an address with the country as an ISO 3166-1 alpha-2 code (e.g. IT) unless it takes the location address. Returns the new hotspot with its id. This is a write: it is sent once and never retried, so if it fails without a clear answer, check with the hotspot tools before calling it again.';
