import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { contactIdField, getManyFields, organizationIdField, shape, simplifyField } from '../../shared/descriptions';
import { kindFilter } from '../../shared/events';
import { fetchRecords } from '../../shared/paginate';
import { simplifyEvent } from '../../shared/simplify';
import { apiPath } from '../../shared/transport';
import type { ItemInput } from '../../shared/validate';
import { eventFilters, eventQuery } from './filters';

export const description = updateDisplayOptions({ show: { resource: ['event'], operation: ['getAllForContact'] } }, [
	organizationIdField,
	contactIdField,
	...getManyFields(),
	eventFilters,
	simplifyField,
]);

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const contactId = input.id('contactId', 'Contact ID');
	const max = input.limit();
	const { query, kinds } = eventQuery(input);
	const simplify = input.boolean('simplify', 'Simplify');
	const filter = kindFilter(kinds);
	// This list cannot scroll: one request of up to 10,000 events, most recent window first if sorted so.
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
		filter.query !== undefined || kinds.length === 0 ? max : undefined,
	);
	const kept = events.filter(filter.keep).slice(0, max ?? events.length);
	return shape(kept, simplify, simplifyEvent);
}
