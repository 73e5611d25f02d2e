import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { contactIdField, simplifyField } from '../../shared/descriptions';
import { simplifyContact } from '../../shared/simplify';
import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/validate';

export const description = updateDisplayOptions({ show: { resource: ['contact'], operation: ['get'] } }, [
	contactIdField,
	simplifyField,
]);

/** The profile inside the answer: `customer` when present, else the answer without its envelope fields. */
export function profileOf(body: IDataObject): IDataObject {
	if (body.customer && typeof body.customer === 'object') return body.customer as IDataObject;
	const profile = { ...body };
	delete profile.generated;
	delete profile.status;
	return profile;
}

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
	const profile = profileOf(body);
	return [simplify ? simplifyContact(profile) : profile];
}
