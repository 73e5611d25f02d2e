/**
 * Opt-ins update with "Error If Some Not Updated": a 207 body is handed whole to NodeApiError as its error response.
 * n8n-workflow copies the body's `message` into the error's `messages` (shown in the editor's error panel, saved with
 * the execution) and keeps the body; nothing is masked there, unlike every other refusal (`serviceError`).
 */
import type { TestContext } from '../harness/cloud4wi';
import { CREDENTIAL_ID, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { errorText, lastThrownError } from '../harness/engine';

let ctx: TestContext;
afterEach(async () => await ctx.sb.close());

test('a 207 that quotes the Authorization header: the token is in no part of the error', async () => {
	ctx = await startCloud4Wi();
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in: a token stored
	const token = String(ctx.store.stored(CREDENTIAL_ID).sessionToken);
	expect(token.length).toBeGreaterThan(4);
	ctx.sb.addFault({
		method: 'PUT',
		path: '/policies$',
		status: 207,
		body: { mktgCommunications: false, message: `Partial update for request with Authorization: Bearer ${token}` },
	});
	const result = await runAction(ctx, {
		resource: 'contact',
		operation: 'updateOptIns',
		contactId: ctx.sb.data.contacts[0]!.cid,
		optIns: { optIn: [{ policy: 'mktgCommunications', accepted: true }] },
		options: { failOnPartial: true },
	});
	expect(result.error).toBeDefined();
	expect(errorText(lastThrownError())).not.toContain(token);
	expect(JSON.stringify(result.run)).not.toContain(token);
});
