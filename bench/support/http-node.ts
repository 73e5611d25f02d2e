import type { INodeParameters } from 'n8n-workflow';

/**
 * n8n's HTTP Request node (4.2) doing our Update Opt-Ins: a PUT of the marketing opt-in per item, with a Bearer token
 * from one login, all items at once (its default). `id` and `accepted` are expressions over the item.
 */
export function httpRequestOptInParams(baseUrl: string, token: string, id: string, accepted: string): INodeParameters {
	return {
		method: 'PUT',
		url: `=${baseUrl}/v1/customers/{{ ${id} }}/policies`,
		sendHeaders: true,
		headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${token}` }] },
		sendBody: true,
		specifyBody: 'json',
		jsonBody: `={{ JSON.stringify({ policies: [{ policyKey: "mktgCommunications", accepted: ${accepted} }] }) }}`,
		options: {},
	};
}
