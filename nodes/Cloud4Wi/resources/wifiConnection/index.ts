import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../shared/descriptions';
import { resourceFields } from '../../shared/descriptions';
import * as getAll from './getAll';

export const operations: Record<string, Operation> = { getAll };

export const description: INodeProperties[] = resourceFields(
	'wifiConnection',
	[
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many wifi connections',
			description: 'Get the WiFi sessions of an organization with duration, traffic, location and hotspot',
		},
	],
	operations,
);
