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

export const toolDescription =
	'Gets one Cloud4Wi contact (a WiFi guest) by the contact ID (cid); to find a contact by email or phone, use the tool that gets many contacts with a filter. Returns the profile: name, email, phone (E.164, e.g. +393331234567), country (ISO 3166-1 alpha-2, e.g. IT), signup method and location, created and last login times (ISO 8601), opt-ins (privacy, termsOfUse, marketing, custom ones) and segments.';
