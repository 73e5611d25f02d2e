import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { contactIdField, getManyFields } from '../../shared/descriptions';
import type { Operation } from '../../shared/descriptions';
import type { Paging } from '../../shared/paginate';
import { fetchRecords } from '../../shared/paginate';
import { apiPath } from '../../shared/path';
import type { ItemInput } from '../../shared/input';

/** A contact's sub-list as an operation: its Operation choice, what its records are, and its endpoint. */
interface SubList {
	option: { name: string; value: string; action: string };
	/** "the devices of a contact with …": the choice's description and the tool's text both say it. */
	records: string;
	list: [suffix: string, recordsKey: string, paging: Paging];
}

/** A list that belongs to one contact (`/v2/customers/{cid}/<suffix>`): one item per record, records as sent. */
export function contactSubList({ option, records, list: [suffix, recordsKey, paging] }: SubList): Operation {
	const toolDescription = `Lists ${records}, for one Cloud4Wi contact. Needs the contact ID (cid). Returns { records, hasMore, note }: up to the tool's Limit of records as Cloud4Wi sends them (times in ISO 8601); hasMore says whether there are more than given.`;
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
	return { option: { ...option, description: `Get ${records}` }, fields, execute, toolDescription };
}
