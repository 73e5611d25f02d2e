import type { IDataObject, IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemInput } from './input';

/**
 * One operation file: its choice in the Operation list (the one place its value is written), its fields, and how it
 * runs for one item. A file may export more; `resource()` reads only these.
 */
export interface Operation {
	option: INodePropertyOptions & { value: string };
	fields: INodeProperties[];
	execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]>;
}

/**
 * A resource from its operation files: the Operation selector (choices by name, as n8n's lint asks; Get Many first
 * chosen when there is one), each operation's fields shown only for it, in the order listed, and the operations by value.
 */
export function resource(
	name: string,
	list: Operation[],
): { description: INodeProperties[]; operations: Record<string, Operation> } {
	const operations = Object.fromEntries(list.map((op) => [op.option.value, op]));
	const first = operations.getAll ? 'getAll' : list[0].option.value;
	const selector: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [name] } },
		options: list.map((op) => op.option).sort((a, b) => a.name.localeCompare(b.name)),
		default: first,
	};
	const fields = list.flatMap((op) =>
		updateDisplayOptions({ show: { resource: [name], operation: [op.option.value] } }, op.fields),
	);
	return { description: [selector, ...fields], operations };
}

/** The Filters collection of a Get Many, its options in alphabetical order. */
export function filtersField(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: byDisplayName(options),
	};
}

export const organizationIdField: INodeProperties = {
	displayName: 'Organization ID',
	name: 'organizationId',
	type: 'string',
	default: '',
	placeholder: 'Leave empty to use the credential default',
	description: "ID of the Cloud4Wi organization. Leave empty to use the credential's default organization.",
};

export function getManyFields(): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 10000 },
			default: 50,
			displayOptions: { show: { returnAll: [false] } },
			description: 'Max number of results to return',
		},
	];
}

/** Collection options in the alphabetical order n8n's lint asks for, whatever order they were written in. */
export function byDisplayName(options: INodeProperties[]): INodeProperties[] {
	return [...options].sort((a, b) => a.displayName.localeCompare(b.displayName));
}

export const simplifyField: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: false,
	description: 'Whether to return a flat record with the most used fields instead of the full record',
};

/** A location picked from a list, or typed as an ID. */
export function locationLocator(required: boolean, description: string): INodeProperties {
	return {
		displayName: 'Location',
		name: 'locationId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required,
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchLocations', searchable: true },
			},
			{ displayName: 'ID', name: 'id', type: 'string', placeholder: 'e.g. 5f2a0c1e9b' },
		],
	};
}

/** A hotspot picked from a list, or typed as an ID. */
export const hotspotLocator: INodeProperties = {
	displayName: 'Hotspot',
	name: 'hotspotId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The hotspot (access point)',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchHotspots', searchable: true },
		},
		{ displayName: 'ID', name: 'id', type: 'string', placeholder: 'e.g. 61d5c3a0f1' },
	],
};

export const contactIdField: INodeProperties = {
	displayName: 'Contact ID',
	name: 'contactId',
	type: 'string',
	default: '',
	required: true,
	description: 'The contact’s ID (cid)',
};

/** Records kept as the service sent them, or one flat record per item when Simplify is on. */
export function shape<T extends IDataObject>(
	records: T[],
	simplify: boolean,
	simplifier: (record: T) => IDataObject,
): IDataObject[] {
	return simplify ? records.map(simplifier) : records;
}
