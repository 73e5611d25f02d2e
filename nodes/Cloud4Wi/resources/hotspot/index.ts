import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../shared/descriptions';
import { resourceFields } from '../../shared/descriptions';
import * as create from './create';
import * as del from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as getByIdentifier from './getByIdentifier';
import * as update from './update';

export const operations: Record<string, Operation> = { create, delete: del, get, getAll, getByIdentifier, update };

export const description: INodeProperties[] = resourceFields(
	'hotspot',
	[
		{ name: 'Create', value: 'create', action: 'Create a hotspot', description: 'Add an access point to a location' },
		{ name: 'Delete', value: 'delete', action: 'Delete a hotspot', description: 'Delete an access point' },
		{ name: 'Get', value: 'get', action: 'Get a hotspot', description: 'Get an access point by ID' },
		{
			name: 'Get by Identifier',
			value: 'getByIdentifier',
			action: 'Get a hotspot by identifier',
			description: 'Get an access point by the identifier set in the dashboard',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many hotspots',
			description: 'Get the access points of an organization',
		},
		{ name: 'Update', value: 'update', action: 'Update a hotspot', description: 'Change an access point' },
	],
	operations,
);
