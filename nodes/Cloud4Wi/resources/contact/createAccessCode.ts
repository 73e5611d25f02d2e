import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contactIdField } from '../../shared/descriptions';
import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

export const option = {
	name: 'Create Access Code',
	value: 'createAccessCode',
	action: 'Create an access code for a contact',
	description: 'Create a one-time access code (OTP) for a contact',
};

export const fields: INodeProperties[] = [contactIdField];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const contactId = input.id('contactId', 'Contact ID');
	const { body } = await cloud4WiApiRequest.call(this, {
		method: 'POST',
		path: apiPath`/v2/customers/${contactId}/otp`,
		itemIndex: input.itemIndex,
		notFound: `contact "${contactId}"`,
		scopes: 'organization_write, customer_write',
	});
	return [{ contactId, accessCode: body.otp ?? null, status: body.status ?? null, generated: body.generated ?? null }];
}
