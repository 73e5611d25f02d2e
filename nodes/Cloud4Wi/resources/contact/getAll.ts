import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { CONTACT_SORT_FIELDS, CONTACT_SORT_OPTIONS } from '../../shared/constants';
import { filtersField, getManyFields, organizationIdField, shape, simplifyField } from '../../shared/descriptions';
import { fetchRecords } from '../../shared/paginate';
import { simplifyContact } from '../../shared/simplify';
import { apiPath } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

const toggles: Array<[string, string, string]> = [
	['hasEmail', 'Has Email', 'Whether to return only contacts with an email address'],
	['emailVerified', 'Email Verified', 'Whether to return only contacts with a verified email address'],
	['hasPhone', 'Has Phone', 'Whether to return only contacts with a phone number'],
	['phoneVerified', 'Phone Verified', 'Whether to return only contacts with a verified phone number'],
	['mktgCommunications', 'Marketing Opt-In', 'Whether to return only contacts who accepted marketing communications'],
	['ageVerification', 'Age Verified', 'Whether to return only contacts whose age is verified'],
];
const searches: Array<[string, string]> = [
	['email', 'Email'],
	['username', 'Username'],
	['extId', 'External ID'],
	['extProp1', 'External Property 1'],
	['extProp2', 'External Property 2'],
	['signupMethods', 'Signup Method'],
];
const dates: Array<[string, string]> = [
	['createdStart', 'Created After'],
	['createdEnd', 'Created Before'],
	['modifiedStart', 'Modified After'],
	['modifiedEnd', 'Modified Before'],
];

export const option = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many contacts',
	description: 'Get contacts of an organization, with filters',
};

export const fields: INodeProperties[] = [
	organizationIdField,
	...getManyFields(),
	filtersField([
		...toggles.map(
			([name, displayName, description]): INodeProperties => ({
				displayName,
				name,
				type: 'boolean',
				default: true,
				description,
			}),
		),
		...searches.map(
			([name, displayName]): INodeProperties => ({
				displayName,
				name,
				type: 'string',
				default: '',
				description: `Only contacts whose ${displayName.toLowerCase()} matches`,
			}),
		),
		{
			displayName: 'Phone Number',
			name: 'phoneNumber',
			type: 'string',
			default: '',
			placeholder: '+393331234567',
			description: 'Only contacts with this phone number, in E.164 form',
		},
		...dates.map(
			([name, displayName]): INodeProperties => ({
				displayName,
				name,
				type: 'dateTime',
				default: '',
				description: `Only contacts ${displayName.toLowerCase()} this time (inclusive)`,
			}),
		),
		{
			displayName: 'Segment Names or IDs',
			name: 'segmentCids',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getSegments' },
			default: [],
			description:
				'Only contacts in these segments. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Location Names or IDs',
			name: 'locationCids',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getLocations' },
			default: [],
			description:
				'Only contacts who signed up at these locations. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
		{
			displayName: 'Custom Opt-Ins Accepted',
			name: 'customOptIns',
			type: 'string',
			typeOptions: { multipleValues: true },
			default: [],
			placeholder: 'Newsletter',
			description: 'Only contacts who accepted every one of these custom opt-ins (by policy name)',
		},
		{
			displayName: 'Sort By',
			name: 'sortBy',
			type: 'options',
			options: CONTACT_SORT_OPTIONS,
			default: 'created',
			description: 'Field the contacts are ordered by',
		},
		{
			displayName: 'Reverse Order',
			name: 'sortReverse',
			type: 'boolean',
			default: false,
			description: 'Whether to reverse the order (needs Sort By)',
		},
	]),
	simplifyField,
];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	const organizationId = await input.organizationId();
	const max = input.limit();
	const filters = input.collection('filters');
	const query: IDataObject = {};

	for (const [name, label] of toggles)
		if (filters[name] !== undefined) query[name] = input.onOff(filters[name], `Filters > ${label}`);
	for (const [name, label] of searches)
		if (input.given(filters[name], `Filters > ${label}`))
			query[name] = input.text(filters[name], `Filters > ${label}`).trim();
	if (input.given(filters.phoneNumber, 'Filters > Phone Number'))
		query.phoneNumber = input.phone(filters.phoneNumber, 'Filters > Phone Number');
	for (const [name, label] of dates)
		if (input.given(filters[name], `Filters > ${label}`))
			query[name] = input.dateTime(filters[name], `Filters > ${label}`);
	input.range(query.createdStart as string, query.createdEnd as string, ['Filters > Created After', 'Created Before']);
	input.range(query.modifiedStart as string, query.modifiedEnd as string, [
		'Filters > Modified After',
		'Modified Before',
	]);
	for (const name of ['segmentCids', 'locationCids']) {
		const label = name === 'segmentCids' ? 'Filters > Segment' : 'Filters > Location';
		const ids = input.listFilter(filters[name], label).map((id) => input.id(name, label, id));
		if (ids.length) query[name] = ids.join(',');
	}
	// Custom opt-in names are split as lists are, but each is its own query parameter: a comma in one does no harm.
	for (const policy of input.listFilter(filters.customOptIns, 'Filters > Custom Opt-Ins Accepted', true))
		query[`customOptin.${policy}`] = true;
	if (filters.sortReverse !== undefined && !filters.sortBy) {
		input.required('', 'Filters > Sort By (Reverse Order needs it)');
	}
	if (filters.sortBy) query.sortBy = input.oneOf(filters.sortBy, 'Filters > Sort By', CONTACT_SORT_FIELDS);
	if (filters.sortReverse !== undefined)
		query.sortReverse = input.onOff(filters.sortReverse, 'Filters > Reverse Order');
	const simplify = input.boolean('simplify', 'Simplify');

	const contacts = await fetchRecords.call(
		this,
		{
			method: 'GET',
			path: apiPath`/v2/customers/organizations/${organizationId}`,
			query,
			itemIndex: input.itemIndex,
			notFound: `organization "${organizationId}"`,
			scopes: 'organization_read, customer_read',
		},
		'customers',
		{ style: 'scroll', idParam: 'sid', idField: 'sId' },
		max,
	);
	return shape(contacts, simplify, simplifyContact);
}

export const toolDescription =
	'Finds Cloud4Wi contacts (WiFi guests) of the organization. Filters, when offered: email, phone number (E.164, e.g. +393331234567), username, external ID, signup method, marketing opt-in, created or modified after/before (ISO 8601, e.g. 2025-03-01T00:00:00Z), segment and location IDs. Returns { records, hasMore, note }: a few contacts (id, name, email, phone, country, opt-ins as true/false, segments); when hasMore is true, more contacts match: narrow the filters rather than asking for more.';
