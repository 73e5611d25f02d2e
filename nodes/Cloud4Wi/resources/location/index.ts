import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../shared/descriptions';
import { resourceFields } from '../../shared/descriptions';
import * as create from './create';
import * as del from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';

export const operations: Record<string, Operation> = { create, delete: del, get, getAll, update };

export const description: INodeProperties[] = resourceFields(
	'location',
	[
		{ name: 'Create', value: 'create', action: 'Create a location', description: 'Add a venue to an organization' },
		{ name: 'Delete', value: 'delete', action: 'Delete a location', description: 'Delete a venue' },
		{ name: 'Get', value: 'get', action: 'Get a location', description: 'Get a venue by ID' },
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many locations',
			description: 'Get the venues of an organization',
		},
		{ name: 'Update', value: 'update', action: 'Update a location', description: 'Change a venue' },
	],
	operations,
);
