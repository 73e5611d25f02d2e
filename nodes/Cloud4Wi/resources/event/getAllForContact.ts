import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { contactIdField, getManyFields, organizationIdField, shape, simplifyField } from '../../shared/descriptions';
import { kindFilter } from '../../shared/events';
import { fetchRecords, MAX_PAGE_SIZE } from '../../shared/paginate';
import { simplifyEvent } from '../../shared/simplify';
import { apiPath } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';
import { eventFilters, eventQuery } from './filters';

export const option = {
	name: 'Get Many for Contact',
	value: 'getAllForContact',
	action: 'Get many events of a contact',
	description: 'Get the events of one contact',
};

export const fields: INodeProperties[] = [
	organizationIdField,
	contactIdField,
	...getManyFields(),
	eventFilters,
	simplifyField,
];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const contactId = input.id('contactId', 'Contact ID');
	const max = input.limit();
	const { query, kinds } = eventQuery(input);
	const simplify = input.boolean('simplify', 'Simplify');
	const filter = kindFilter(kinds);
	// This list cannot scroll: one request of up to 10,000 events, most recent window first if sorted so.
	const asked = filter.query !== undefined || kinds.length === 0 ? max : undefined;
	const events = await fetchRecords.call(
		this,
		{
			method: 'GET',
			path: apiPath`/v1/organizations/${organizationId}/customers/${contactId}/events`,
			query: { ...query, events: filter.query },
			itemIndex: input.itemIndex,
			notFound: `contact "${contactId}" in organization "${organizationId}"`,
			scopes: 'organization_read, events_read',
		},
		'events',
		{ style: 'sized' },
		asked,
	);
	const kept = events.filter(filter.keep).slice(0, max ?? events.length);
	// A full answer to an unbounded read may hide more: said, rather than handing on 10,000 as if they were all.
	if (asked === undefined && events.length >= MAX_PAGE_SIZE && (max === undefined || kept.length < max)) {
		throw new NodeOperationError(
			this.getNode(),
			`This contact has more than ${MAX_PAGE_SIZE.toLocaleString('en-US')} events matching, the most Cloud4Wi returns in one answer`,
			{
				itemIndex: input.itemIndex,
				description:
					'Cloud4Wi cannot page through the events of one contact, so the list would end short. Narrow it with Filters > From and To (and read each range in turn), or turn off Return All and set a Limit.',
			},
		);
	}
	return shape(kept, simplify, simplifyEvent);
}

export const toolDescription =
	'Lists the events of one Cloud4Wi contact: signups, visits, logins, campaign emails and SMS. Needs the contact ID (cid); filters, when offered: event kinds, from and to (ISO 8601). Returns { records, hasMore, note }: a few events (id, type, time, location); when hasMore is true, more match: narrow the time range or kinds.';
