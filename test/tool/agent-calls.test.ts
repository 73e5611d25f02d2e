import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { ACTION_TYPE, apiCalls, CREDENTIAL_ID, node, startCloud4Wi } from '../harness/cloud4wi';
import { buildWorkflow, runAsTool } from '../harness/engine';

const TOOL = 'Cloud4Wi Tool';
const fromAI = (key: string, type = 'string') => `={{ $fromAI('${key}', 'the ${key}', '${type}') }}`;

let ctx: TestContext;
beforeAll(async () => {
	ctx = await startCloud4Wi({ contacts: 30 });
});
afterAll(async () => await ctx.sb.close());
beforeEach(() => {
	ctx.sb.clearFaults();
	ctx.sb.clearRequests();
});

/** One tool call with these parameters and the model's arguments; the agent's answer parsed back. */
async function callTool(parameters: INodeParameters, args: IDataObject): Promise<unknown> {
	const workflow = buildWorkflow({ nodes: [node(TOOL, ACTION_TYPE, parameters)], connections: {} });
	return JSON.parse(await runAsTool(workflow, ctx.store, TOOL, args));
}

async function toolFailure(parameters: INodeParameters, args: IDataObject): Promise<Error> {
	const workflow = buildWorkflow({ nodes: [node(TOOL, ACTION_TYPE, parameters)], connections: {} });
	const failed = await runAsTool(workflow, ctx.store, TOOL, args).then(
		() => undefined,
		(error: Error) => error,
	);
	expect(failed).toBeDefined();
	return failed!;
}

const getContact = { resource: 'contact', operation: 'get', contactId: fromAI('contactId') };

test('Contact Get with the id the model chose: one GET, the profile back to the agent', async () => {
	const target = ctx.sb.data.contacts[4]!;
	const answer = await callTool(getContact, { contactId: target.cid });
	expect(answer).toEqual([target]);
	expect(apiCalls(ctx.sb)).toEqual([`GET /v2/customers/${target.cid}`]);
});

test('Contact Get Many with the limit the model chose (a number): one page of that size', async () => {
	const answer = (await callTool(
		{ resource: 'contact', operation: 'getAll', limit: fromAI('limit', 'number') },
		{ limit: 3 },
	)) as Array<{ cid: string }>;
	expect(answer).toHaveLength(3);
	expect(answer.map((c) => c.cid)).toEqual([...ctx.sb.data.contacts].slice(0, 3).map((c) => c.cid));
	const [list] = ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login'));
	expect(list.path).toBe(`/v2/customers/organizations/${ctx.sb.organizationId}`);
	expect(list.query.size).toBe('3');
});

test("Update Opt-Ins with the model's contact and choice: the write is sent once", async () => {
	const target = ctx.sb.data.contacts[7]!;
	const answer = (await callTool(
		{
			resource: 'contact',
			operation: 'updateOptIns',
			contactId: fromAI('contactId'),
			optIns: { optIn: [{ policy: 'mktgCommunications', accepted: fromAI('accepted', 'boolean') }] },
		},
		{ contactId: target.cid, accepted: true },
	)) as Array<{ contactId: string }>;
	expect(answer).toHaveLength(1);
	expect(answer[0].contactId).toBe(target.cid);
	const writes = ctx.sb.requests.filter((r) => r.method === 'PUT');
	expect(writes.map((r) => r.path)).toEqual([`/v1/customers/${target.cid}/policies`]);
	expect(JSON.stringify(writes[0].body)).toContain('mktgCommunications');
});

test.each([['../../v1/sts/logout'], ['a/b'], ['x?organizationId=other'], ['%2e%2e']])(
	'a hostile id from the model (%s) is refused by name, and nothing is sent',
	async (contactId) => {
		const error = await toolFailure(getContact, { contactId });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(/^Contact ID: /);
		expect(ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login'))).toEqual([]);
	},
);

test("the service's 404 reaches the agent with its message and our hint, with no secret in it", async () => {
	const error = await toolFailure(getContact, { contactId: 'no-such-contact' });
	expect(apiCalls(ctx.sb)).toEqual(['GET /v2/customers/no-such-contact']);
	const told = `${error.message} ${(error as { description?: string }).description ?? ''}`;
	expect(told).toContain('Contact not found: no-such-contact'); // the service's own message
	expect(error.message).toContain('Cloud4Wi has no contact "no-such-contact"'); // n8n appends the details for the agent
	const secret = String(ctx.store.stored(CREDENTIAL_ID).clientSecret);
	const token = String(ctx.store.stored(CREDENTIAL_ID).sessionToken);
	expect(told).not.toContain(secret);
	if (token) expect(told).not.toContain(token);
});

test('an agent calling the tool ten times at once on a first run (no token anywhere): one login', async () => {
	const first = await startCloud4Wi({ contacts: 30 }); // a new service: no token in the credential or this process
	const saved = ctx;
	ctx = first;
	try {
		const targets = [...ctx.sb.data.contacts].slice(10, 20);
		const answers = await Promise.all(targets.map((c) => callTool(getContact, { contactId: c.cid })));
		expect(answers).toEqual(targets.map((c) => [c]));
		expect(ctx.sb.requests.filter((r) => r.path === '/v1/sts/login/services')).toHaveLength(1);
		expect(apiCalls(ctx.sb).sort()).toEqual(targets.map((c) => `GET /v2/customers/${c.cid}`).sort());
	} finally {
		ctx = saved;
		await first.sb.close();
	}
});
