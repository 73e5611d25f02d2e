/**
 * The sixth example, examples/6-guest-concierge.json: its Cloud4Wi tools, as the AI Agent gets them (name,
 * description, arguments), each called as the agent calls it, against the sandbox.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { apiCalls, CREDENTIAL_ID, sandboxPerFile, TOOL_TYPE } from '../harness/cloud4wi';
import { buildWorkflow, runAsTool, toolAsTheModelSeesIt } from '../harness/engine';

const example = JSON.parse(readFileSync(join(__dirname, '../../examples/6-guest-concierge.json'), 'utf8')) as {
	nodes: INode[];
	connections: Record<string, Record<string, Array<Array<{ node: string; type: string }>>>>;
};
const tools = example.nodes
	.filter((n) => n.type === TOOL_TYPE)
	.map((n) => ({ ...n, credentials: { cloud4WiApi: { id: CREDENTIAL_ID, name: 'Cloud4Wi account' } } }));
const workflow = () => buildWorkflow({ nodes: structuredClone(tools), connections: {} });

const ctx = sandboxPerFile({ contacts: 30 });

test("three Cloud4Wi tools, each connected to the agent, each with its operation's description and its arguments", () => {
	expect(tools.map((n) => n.name)).toEqual(['Find guest by email', 'Get guest', 'Set marketing consent']);
	for (const tool of tools) {
		expect(example.connections[tool.name]).toEqual({
			ai_tool: [[{ node: 'Guest concierge', type: 'ai_tool', index: 0 }]],
		});
	}
	const told = tools.map((n) => toolAsTheModelSeesIt(workflow(), n.name));
	expect(told.map(({ name, arguments: args }) => ({ name, args }))).toEqual([
		{ name: 'Find_guest_by_email', args: ['email'] },
		{ name: 'Get_guest', args: ['contactId'] },
		{ name: 'Set_marketing_consent', args: ['contactId', 'accepted'] },
	]);
	expect(told[0].description).toMatch(/^Finds Cloud4Wi contacts/);
	expect(told[1].description).toMatch(/^Gets one Cloud4Wi contact/);
	expect(told[2].description).toMatch(/^Sets the consent choices/);
});

test("the agent's errand: find a guest by email, withdraw her marketing consent, read her back", async () => {
	const guest = ctx.sb.data.contacts.find((c) => c.email !== null)!;
	const call = async (name: string, args: IDataObject) =>
		JSON.parse(await runAsTool(workflow(), ctx.store, name, args)) as Array<Record<string, unknown>>;

	const [found] = await call('Find guest by email', { email: guest.email });
	expect(found).toMatchObject({ hasMore: false, records: [{ id: guest.cid, email: guest.email }] });
	const [set] = await call('Set marketing consent', { contactId: guest.cid, accepted: false });
	expect(set).toMatchObject({ contactId: guest.cid, allUpdated: true });
	const [read] = await call('Get guest', { contactId: guest.cid });
	expect(read.policies).toEqual(
		expect.arrayContaining([expect.objectContaining({ name: 'mktgCommunications', accepted: false })]),
	);

	expect(apiCalls(ctx.sb)).toEqual([
		`GET /v2/customers/organizations/${ctx.sb.organizationId}`,
		`PUT /v1/customers/${guest.cid}/policies`,
		`GET /v2/customers/${guest.cid}`,
	]);
	expect(ctx.sb.requests.find((r) => r.method === 'PUT')!.body).toEqual({
		policies: [{ policyKey: 'mktgCommunications', accepted: false }],
	});
});
