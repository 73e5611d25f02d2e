import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../shared/descriptions';
import { resourceFields } from '../../shared/descriptions';
import * as getAll from './getAll';
import * as getAllForContact from './getAllForContact';

export const operations: Record<string, Operation> = { getAll, getAllForContact };

export const description: INodeProperties[] = resourceFields(
	'event',
	[
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many events',
			description: 'Get visits, signups, logins and campaign events of an organization',
		},
		{
			name: 'Get Many for Contact',
			value: 'getAllForContact',
			action: 'Get many events of a contact',
			description: 'Get the events of one contact',
		},
	],
	operations,
);
