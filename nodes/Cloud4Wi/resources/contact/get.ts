import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contactIdField, simplifyField } from '../../shared/descriptions';
import { contactProfileOf, simplifyContact } from '../../shared/simplify';
import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

export const option = {
	name: 'Get',
	value: 'get',
	action: 'Get a contact',
	description: 'Get the profile of a contact',
};

export const fields: INodeProperties[] = [contactIdField, simplifyField];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const contactId = input.id('contactId', 'Contact ID');
	const simplify = input.boolean('simplify', 'Simplify');
	const { body } = await cloud4WiApiRequest.call(this, {
		method: 'GET',
		path: apiPath`/v2/customers/${contactId}`,
		itemIndex: input.itemIndex,
		notFound: `contact "${contactId}"`,
		scopes: 'organization_read, customer_read',
	});
	const profile = contactProfileOf(body);
	return [simplify ? simplifyContact(profile) : profile];
}
