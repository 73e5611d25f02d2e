import type { IDataObject, IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { ItemInput } from '../../shared/input';

export const ADDRESS_FIELDS: Array<[string, string]> = [
	['address', 'Address'],
	['city', 'City'],
	['state', 'State'],
	['zip', 'ZIP Code'],
];

/** Address fields shown when the hotspot does not take its location's address. */
export function addressFields(show: IDisplayOptions['show']): INodeProperties[] {
	return [
		{
			displayName: 'Country Code',
			name: 'country',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'IT',
			description: 'ISO 3166-1 alpha-2 code of the country',
			displayOptions: { show },
		},
		...ADDRESS_FIELDS.map(
			([name, displayName]): INodeProperties => ({
				displayName,
				name,
				type: 'string',
				default: '',
				required: true,
				displayOptions: { show },
			}),
		),
	];
}

/** Checks and copies address values into a body (each one given, or all when `required`: the hotspot has its own address). */
export function putAddress(
	input: ItemInput,
	source: IDataObject,
	body: IDataObject,
	required: boolean,
	prefix = '',
): void {
	// A field given empty fails like a missing required one, rather than be dropped or blank the address.
	if (required || source.country !== undefined) body.country = input.country(source.country, `${prefix}Country Code`);
	for (const [name, label] of ADDRESS_FIELDS)
		if (required || source[name] !== undefined) body[name] = input.required(source[name], `${prefix}${label}`);
}
