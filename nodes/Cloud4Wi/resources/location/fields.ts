import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { LOCATION_CATEGORIES } from '../../shared/constants';
import type { ItemInput } from '../../shared/input';

export const categoryField: INodeProperties = {
	displayName: 'Category',
	name: 'categoryName',
	type: 'options',
	options: [...LOCATION_CATEGORIES]
		.sort()
		.map((value) => ({ name: value.replace(/\b\w/g, (c) => c.toUpperCase()), value })),
	default: 'other',
	description: 'Kind of venue, as Cloud4Wi classifies it',
};

export const tagsField: INodeProperties = {
	displayName: 'Tags',
	name: 'tags',
	type: 'string',
	typeOptions: { multipleValues: true },
	default: [],
	placeholder: 'flagship',
};

export const ADDRESS: Array<[string, string]> = [
	['address', 'Address'],
	['city', 'City'],
	['state', 'State'],
	['zip', 'ZIP Code'],
];

const TEXT_FIELDS = [
	['description', 'Description'],
	['externalId', 'External ID'],
	['organizationPlanId', 'Organization Plan ID'],
];
const ON_OFF_FIELDS = [
	['onNet', 'On Net'],
	['enabled', 'Enabled'],
];

/** Checks the optional fields shared by create and update and copies them into the body. */
export function putOptional(input: ItemInput, fields: IDataObject, body: IDataObject, prefix: string): void {
	for (const [name, label] of TEXT_FIELDS)
		if (fields[name] !== undefined) body[name] = input.text(fields[name], `${prefix}${label}`);
	// Required on create: an Update that gives them empty would blank the location's name or address.
	for (const [name, label] of [['name', 'Name'], ...ADDRESS])
		if (fields[name] !== undefined) body[name] = input.required(fields[name], `${prefix}${label}`);
	for (const [name, label] of ON_OFF_FIELDS)
		if (fields[name] !== undefined) body[name] = input.onOff(fields[name], `${prefix}${label}`);
	if (fields.categoryName !== undefined)
		body.categoryName = input.oneOf(fields.categoryName, `${prefix}Category`, LOCATION_CATEGORIES);
	// Checked like the Get Many filter's tags, so no tag is created that its comma-separated filter cannot find.
	if (fields.tags !== undefined) body.tags = input.list(fields.tags, `${prefix}Tags`);
	if (fields.country !== undefined) body.country = input.country(fields.country, `${prefix}Country Code`);
	if (fields.timezone !== undefined) body.timezone = input.timezone(fields.timezone, `${prefix}Time Zone`);
}
