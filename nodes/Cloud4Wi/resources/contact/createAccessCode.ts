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

export const toolDescription =
	'Creates a one-time access code (OTP) for one Cloud4Wi contact, for example to let a guest sign in to the WiFi. Needs the contact ID (cid), as returned by the contact tools. Returns contactId and accessCode. This is a write: it is sent once and never retried, so if it fails without a clear answer, check before calling it again.';
