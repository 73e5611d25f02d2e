import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { organizationIdField } from '../../shared/descriptions';
import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';
import { ADDRESS, categoryField, putOptional, tagsField } from './fields';

const REQUIRED: Array<[string, string, string]> = [
	['name', 'Name', ''],
	['timezone', 'Time Zone', 'Area/City form, e.g. Europe/Rome'],
	['country', 'Country Code', 'ISO 3166-1 alpha-2 code, e.g. IT'],
	...ADDRESS.map(([name, label]): [string, string, string] => [name, label, '']),
	['loginProfileId', 'Login Profile ID', 'ID of the login profile guests use at this location'],
	['locationProfileId', 'Location Profile ID', 'ID of the location profile'],
	['welcomePortalId', 'Welcome Portal ID', 'ID of the welcome portal (captive portal) shown to guests'],
];

export const option = {
	name: 'Create',
	value: 'create',
	action: 'Create a location',
	description: 'Add a venue to an organization',
};

export const fields: INodeProperties[] = [
	organizationIdField,
	...REQUIRED.map(
		([name, displayName, description]): INodeProperties => ({
			displayName,
			name,
			type: 'string',
			default: '',
			required: true,
			description,
		}),
	),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			categoryField,
			{ displayName: 'Description', name: 'description', type: 'string', default: '' },
			{
				displayName: 'Enabled',
				name: 'enabled',
				type: 'boolean',
				default: true,
				description: 'Whether the location is enabled',
			},
			{
				displayName: 'External ID',
				name: 'externalId',
				type: 'string',
				default: '',
				description: 'ID of the location in another system',
			},
			{
				displayName: 'On Net',
				name: 'onNet',
				type: 'boolean',
				default: false,
				description: 'Whether the location is on the Cloud4Wi network',
			},
			{
				displayName: 'Organization Plan ID',
				name: 'organizationPlanId',
				type: 'string',
				default: '',
				description: 'Internet plan at organization level',
			},
			tagsField,
		],
	},
];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const required: IDataObject = {};
	for (const [name, label] of REQUIRED) required[name] = input.required(input.raw(name, ''), label);
	// The profile and portal ids exist only on create, so putOptional (shared with update) does not copy them.
	const body: IDataObject = {
		loginProfileId: required.loginProfileId,
		locationProfileId: required.locationProfileId,
		welcomePortalId: required.welcomePortalId,
	};
	putOptional(input, { ...input.collection('additionalFields'), ...required }, body, '');

	const { body: answer } = await cloud4WiApiRequest.call(this, {
		method: 'POST',
		path: apiPath`/v1/organizations/${organizationId}/locations`,
		body,
		itemIndex: input.itemIndex,
		notFound: `organization "${organizationId}"`,
		scopes: 'organization_write',
	});
	return [answer];
}

export const toolDescription =
	'Creates a Cloud4Wi location (a venue). Needs the name, time zone (Area/City, e.g. Europe/Rome), country (ISO 3166-1 alpha-2, e.g. IT), address, city, state, ZIP code, and the IDs of its login profile, location profile and welcome portal. Returns the new location with its id. This is a write: it is sent once and never retried, so if it fails without a clear answer, check with the location tools before calling it again.';
