/**
 * Errors a model can act on: as a tool, a refused input or a Cloud4Wi error is the tool's answer, shaped as an item
 * under Continue On Fail (`error`, `description` with the hint, `httpCode`), so the agent reads it and goes on.
 * A 429 is waited out as in the action node; the secret and the token never reach the model.
 */
import { apiCalls, callTool, CREDENTIAL_ID, fromAI, sandboxPerFile } from '../harness/cloud4wi';

const ctx = sandboxPerFile({ contacts: 30 });

const getContact = { resource: 'contact', operation: 'get', contactId: fromAI('contactId') };

test("a contact that does not exist: the service's message, the status and the hint, as the answer", async () => {
	const answer = await callTool(ctx, getContact, { contactId: 'no-such-contact' });
	expect(answer).toEqual([
		{
			error: 'Contact not found: no-such-contact',
			description: 'Cloud4Wi has no contact "no-such-contact". Check the ID.',
			httpCode: '404',
		},
	]);
	expect(apiCalls(ctx.sb)).toEqual(['GET /v2/customers/no-such-contact']);
});

test('an input the node refuses: the field and the problem, as the answer, and nothing is sent', async () => {
	const answer = await callTool(ctx, getContact, { contactId: '../../v1/sts/logout' });
	expect(answer).toEqual([{ error: expect.stringMatching(/^Contact ID: /) }]);
	expect(ctx.sb.requests).toEqual([]);
});

test('an empty required input: the field and the hint', async () => {
	const answer = await callTool(ctx, getContact, { contactId: ' ' });
	expect(answer).toEqual([
		{ error: 'Contact ID: is empty', description: 'Enter the Contact ID or map it from an earlier node.' },
	]);
	expect(ctx.sb.requests).toEqual([]);
});

test('a 429 is waited out as Retry-After asks, and the model gets the contact', async () => {
	const target = ctx.sb.data.contacts[2]!;
	ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/', status: 429, retryAfter: 1, times: 2 });
	const answer = await callTool(ctx, getContact, { contactId: target.cid });
	expect(answer).toEqual([target]);
	const reads = ctx.sb.requests.filter((r) => r.path === `/v2/customers/${target.cid}`);
	expect(reads.map((r) => r.status)).toEqual([429, 429, 200]);
	expect(reads[2].at - reads[0].at).toBeGreaterThanOrEqual(1900);
});

test('neither the secret nor the token reaches the model, even where Cloud4Wi quotes them back', async () => {
	await callTool(ctx, getContact, { contactId: ctx.sb.data.contacts[0]!.cid }); // a token stored
	const token = String(ctx.store.stored(CREDENTIAL_ID).sessionToken);
	const secret = ctx.sb.credentials.clientSecret;
	expect(token.length).toBeGreaterThan(8);
	ctx.sb.addFault({
		method: 'GET',
		path: '^/v2/customers/',
		status: 409,
		body: { message: `Invalid contactId for Authorization: Bearer ${token} (client secret ${secret})` },
	});
	const answer = await callTool(ctx, getContact, { contactId: 'x1' });
	const told = JSON.stringify(answer);
	expect(told).toContain('Invalid contactId for Authorization: Bearer ***');
	expect(answer).toEqual([expect.objectContaining({ httpCode: '409' })]);
	expect(told).not.toContain(token);
	expect(told).not.toContain(secret);
});
