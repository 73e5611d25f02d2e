import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getManyFields, organizationIdField, shape, simplifyField } from '../../shared/descriptions';
import { kindFilter } from '../../shared/events';
import { MAX_PAGE_SIZE, pagesOf } from '../../shared/paginate';
import { simplifyEvent } from '../../shared/simplify';
import { apiPath } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';
import { eventFilters, eventQuery } from './filters';

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many events',
	description: 'Get visits, signups, logins and campaign events of an organization',
};

export const fields: INodeProperties[] = [organizationIdField, ...getManyFields(), eventFilters, simplifyField];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const max = input.limit() ?? Number.POSITIVE_INFINITY;
	const { query, kinds } = eventQuery(input);
	const simplify = input.boolean('simplify', 'Simplify');
	const filter = kindFilter(kinds);
	// Kinds the server cannot filter are checked here, so pages are read until enough events match.
	const pageSize = filter.query !== undefined || kinds.length === 0 ? Math.min(max, MAX_PAGE_SIZE) : MAX_PAGE_SIZE;
	const events: IDataObject[] = [];
	const pages = pagesOf.call(
		this,
		{
			method: 'GET',
			path: apiPath`/v1/organizations/${organizationId}/events`,
			query: { ...query, events: filter.query },
			itemIndex: input.itemIndex,
			notFound: `organization "${organizationId}"`,
			scopes: 'organization_read, events_read',
		},
		'events',
		{ style: 'scroll', idParam: 'scrollId', idField: 'scrollId', open: { enableScroll: true } },
		pageSize,
	);
	for await (const { records } of pages) {
		events.push(...records.filter(filter.keep).slice(0, max - events.length));
		if (events.length >= max) break;
	}
	return shape(events, simplify, simplifyEvent);
}

export const toolDescription =
	'Lists events of the Cloud4Wi organization: signups, visits, logins, promo clicks, survey answers, emails and SMS sent, opened or clicked. Filters, when offered: event kinds, from and to (ISO 8601, e.g. 2025-03-01T00:00:00Z; a date alone means that whole day). Returns { records, hasMore, note }: a few events (id, type, contactId, time, location); when hasMore is true, more match: narrow the time range or kinds.';
