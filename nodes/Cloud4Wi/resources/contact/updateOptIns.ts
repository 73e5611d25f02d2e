import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { contactIdField } from '../../shared/descriptions';
import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

const STANDARD_OPT_INS = [
	{ name: 'Age Verification', value: 'ageVerification' },
	{ name: 'Custom Opt-In', value: 'custom' },
	{ name: 'Marketing Communications', value: 'mktgCommunications' },
	{ name: 'Privacy Policy', value: 'privacy' },
	{ name: 'Terms of Use', value: 'termsOfUse' },
];

export const option = {
	name: 'Update Opt-Ins',
	value: 'updateOptIns',
	action: 'Update consent choices of a contact',
	description: 'Set the consent choices (opt-ins) of a contact',
};

export const fields: INodeProperties[] = [
	contactIdField,
	{
		displayName: 'Opt-Ins',
		name: 'optIns',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Opt-In',
		default: {},
		required: true,
		options: [
			{
				displayName: 'Opt-In',
				name: 'optIn',
				values: [
					{
						displayName: 'Opt-In',
						name: 'policy',
						type: 'options',
						options: STANDARD_OPT_INS,
						default: 'mktgCommunications',
					},
					{
						displayName: 'Custom Opt-In Title',
						name: 'customTitle',
						type: 'string',
						default: '',
						placeholder: 'Newsletter',
						description: 'Title of the custom opt-in, as set in the Cloud4Wi dashboard',
						displayOptions: { show: { policy: ['custom'] } },
					},
					{
						displayName: 'Accepted',
						name: 'accepted',
						type: 'boolean',
						default: true,
						description: 'Whether the contact accepts this opt-in',
					},
				],
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Error If Some Not Updated',
				name: 'failOnPartial',
				type: 'boolean',
				default: false,
				description: 'Whether to fail the item when Cloud4Wi applies only some of the opt-ins (HTTP 207)',
			},
		],
	},
];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const contactId = input.id('contactId', 'Contact ID');
	const rows = (input.collection('optIns').optIn as IDataObject[] | undefined) ?? [];
	if (rows.length === 0) input.required('', 'Opt-Ins (add at least one)');
	const policies = rows.map((row) => ({
		policyKey:
			row.policy === 'custom'
				? `customs.${input.required(row.customTitle, 'Opt-Ins > Custom Opt-In Title')}`
				: input.text(row.policy, 'Opt-Ins > Opt-In'),
		accepted: input.onOff(row.accepted, 'Opt-Ins > Accepted'),
	}));
	const options = input.collection('options');
	const failOnPartial =
		options.failOnPartial !== undefined && input.onOff(options.failOnPartial, 'Options > Error If Some Not Updated');

	const { status, body } = await cloud4WiApiRequest.call(this, {
		method: 'PUT',
		path: apiPath`/v1/customers/${contactId}/policies`,
		body: { policies },
		itemIndex: input.itemIndex,
		notFound: `contact "${contactId}"`,
		scopes: 'organization_write, customer_write',
	});
	// 207 means some were not applied; the answer maps each applied key to its new value (it may not tell which).
	const allUpdated = status !== 207;
	const notUpdated = allUpdated ? [] : policies.filter((p) => body[p.policyKey] !== p.accepted).map((p) => p.policyKey);
	if (!allUpdated && failOnPartial) {
		throw new NodeApiError(this.getNode(), body as JsonObject, {
			message: notUpdated.length
				? `Cloud4Wi did not update these opt-ins: ${notUpdated.join(', ')}`
				: 'Cloud4Wi answered that some opt-ins were not updated (HTTP 207), without saying which',
			description:
				'The other opt-ins were updated. Check the custom opt-in titles, or turn off "Error If Some Not Updated".',
			httpCode: '207',
			itemIndex: input.itemIndex,
		});
	}
	return [{ contactId, allUpdated, notUpdated, optIns: body }];
}

export const toolDescription =
	'Sets the consent choices (opt-ins) of one Cloud4Wi contact: marketing communications, privacy policy, terms of use, age verification or a custom opt-in by its title, each accepted true or false. Needs the contact ID (cid). Setting the same choice twice is harmless. Returns contactId, allUpdated, notUpdated (the opt-ins Cloud4Wi did not apply) and the new values.';
