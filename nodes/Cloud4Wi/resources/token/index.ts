import type { INodeProperties } from 'n8n-workflow';

import type { Operation } from '../../shared/descriptions';
import { resourceFields } from '../../shared/descriptions';
import * as revoke from './revoke';

export const operations: Record<string, Operation> = { revoke };

export const description: INodeProperties[] = resourceFields(
	'token',
	[
		{
			name: 'Revoke',
			value: 'revoke',
			action: 'Revoke the current token',
			description: 'Log out: revoke the token this credential holds. The next request logs in again.',
		},
	],
	operations,
	'revoke',
);
