import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forgetToken } from '../../shared/runs';
import { cloud4WiApiRequest } from '../../shared/transport';
import type { ItemInput } from '../../shared/input';

export const option = {
	name: 'Revoke',
	value: 'revoke',
	action: 'Revoke the current token',
	description: 'Log out: revoke the token this credential holds. The next request logs in again.',
};

// No fields: it revokes the token the credential holds; the next request logs in again by itself.
export const fields: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions, input: ItemInput): Promise<IDataObject[]> {
	await cloud4WiApiRequest.call(this, {
		method: 'POST',
		path: '/v1/sts/logout',
		itemIndex: input.itemIndex,
	});
	await forgetToken(this); // later requests of this run log in instead of sending the dead token
	return [{ revoked: true }];
}

export const toolDescription =
	'Signs the Cloud4Wi credential out: revokes the API token it holds; the next call signs in again. Takes no input. Returns revoked: true. Rarely needed by an agent.';
