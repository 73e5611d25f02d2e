import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../shared/descriptions';
import { resourceFields } from '../../shared/descriptions';
import * as getAll from './getAll';

export const operations: Record<string, Operation> = { getAll };

export const description: INodeProperties[] = resourceFields(
	'segment',
	[
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many segments',
			description: 'Get the audience segments of an organization',
		},
	],
	operations,
);
