import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contactIdField } from '../../shared/descriptions';
import { apiPath, cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

export const option = { name: 'Delete', value: 'delete', action: 'Delete a contact', description: 'Delete a contact' };

export const fields: INodeProperties[] = [contactIdField];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const contactId = input.id('contactId', 'Contact ID');
	const { body, alreadyDeleted } = await cloud4WiApiRequest.call(this, {
		method: 'DELETE',
		path: apiPath`/v1/customers/${contactId}`,
		itemIndex: input.itemIndex,
		notFound: `contact "${contactId}"`,
		scopes: 'organization_write, customer_write',
	});
	// A delete whose answer was lost is tried again; its retry then finds the record gone.
	return [{ contactId, deleted: true, status: body.status ?? null, ...(alreadyDeleted ? { alreadyDeleted } : {}) }];
}

export const toolDescription =
	'Deletes one Cloud4Wi contact (a WiFi guest) and their profile for good: this cannot be undone. Needs the contact ID (cid), as returned by the contact tools. Returns contactId and deleted: true (alreadyDeleted: true when the contact was already gone). Only call it when the user clearly asked to delete this contact.';
