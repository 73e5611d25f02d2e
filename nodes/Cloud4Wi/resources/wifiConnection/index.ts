import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../shared/descriptions';
import * as getAll from './getAll';

export const operations: Record<string, Operation> = { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['wifiConnection'] } },
		options: [
			{ name: 'Get Many', value: 'getAll', action: 'Get many wifi connections', description: 'Get the WiFi sessions of an organization with duration, traffic, location and hotspot' },
		],
		default: 'getAll',
	},
	...getAll.description,
];
