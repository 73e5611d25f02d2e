import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contactIdField, getManyFields } from '../../shared/descriptions';
import type { Paging } from '../../shared/paginate';
import { fetchRecords } from '../../shared/paginate';
import { apiPath } from '../../shared/path';
import type { ItemInput } from '../../shared/input';

/** A list that belongs to one contact (`/v2/customers/{cid}/<suffix>`): one item per record, records as sent. */
export function contactSubList(suffix: string, recordsKey: string, paging: Paging) {
	const fields: INodeProperties[] = [contactIdField, ...getManyFields()];
	async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
		const contactId = input.id('contactId', 'Contact ID');
		const max = input.limit();
		return await fetchRecords.call(
			this,
			{
				method: 'GET',
				path: `${apiPath`/v2/customers/${contactId}`}/${suffix}`,
				itemIndex: input.itemIndex,
				notFound: `contact "${contactId}"`,
				scopes: 'organization_read, customer_read',
			},
			recordsKey,
			paging,
			max,
		);
	}
	return { fields, execute };
}
