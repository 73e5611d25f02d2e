/**
 * The tools in an n8n 2.x AI Agent's run, where the engine runs each tool call as a node of the workflow (an engine
 * request) and the agent reads its output items: a miss is read with its status and hint, and the run goes on.
 */
import { agentRun, apiCalls, fromAI, sandboxPerFile } from '../harness/cloud4wi';

const ctx = sandboxPerFile({ contacts: 30 });

const tools = {
	'Find guest by email': { resource: 'contact', operation: 'getAll', filters: { email: fromAI('email') } },
	'Get guest': { resource: 'contact', operation: 'get', contactId: fromAI('contactId') },
};

test('a found guest and a missing one in one run: the agent reads both answers, and the run succeeds', async () => {
	const guest = ctx.sb.data.contacts.find((c) => c.email !== null)!;
	const run = await agentRun(ctx, tools, [
		{ tool: 'Find guest by email', args: { email: guest.email } },
		{ tool: 'Get guest', args: { contactId: 'no-such-contact' } },
	]);
	expect(run.error).toBeUndefined();
	expect(run.read).toEqual([
		{
			tool: 'Find guest by email',
			read: [{ records: [expect.objectContaining({ id: guest.cid, email: guest.email })], hasMore: false }],
		},
		{
			tool: 'Get guest',
			read: [
				{
					error: 'Contact not found: no-such-contact',
					description: 'Cloud4Wi has no contact "no-such-contact". Check the ID.',
					httpCode: '404',
				},
			],
		},
	]);
	expect(apiCalls(ctx.sb).sort()).toEqual(
		[`GET /v2/customers/organizations/${ctx.sb.organizationId}`, 'GET /v2/customers/no-such-contact'].sort(),
	);
});
