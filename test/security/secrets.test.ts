/**
 * The client secret and the token never appear in errors, even where Cloud4Wi quotes them back: a login refusal that
 * echoes the request body, an API refusal that echoes the Authorization header, a redirect to an address holding the
 * token. The known secret and tokens are masked before any message is built.
 */
import type { TestContext } from '../harness/cloud4wi';
import { CREDENTIAL_ID, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { errorText, lastThrownError, testCredential } from '../harness/engine';

let ctx: TestContext;
beforeEach(async () => {
	ctx = await startCloud4Wi();
});
afterEach(async () => await ctx.sb.close());

const listSegments = { resource: 'segment', operation: 'getAll', returnAll: true };
const getContact = () => ({ resource: 'contact', operation: 'get', contactId: ctx.sb.data.contacts[0]!.cid });
const storedToken = () => String(ctx.store.stored(CREDENTIAL_ID).sessionToken);

test('a login refusal that quotes the request body: the secret is masked in the error', async () => {
	const { clientKey, clientSecret } = ctx.sb.credentials;
	ctx.sb.addFault({
		method: 'POST',
		path: '^/v1/sts/login/',
		status: 400,
		body: { message: `Malformed credentials {"clientKey":"${clientKey}","clientSecret":"${clientSecret}"}` },
	});
	const result = await runAction(ctx, listSegments);
	expect(result.error?.message).toBe(
		`Cloud4Wi login failed (HTTP 400): Malformed credentials {"clientKey":"${clientKey}","clientSecret":"***"}. Check the base URL of the Cloud4Wi credential.`,
	);
	expect(errorText(lastThrownError())).not.toContain(clientSecret);
	expect(JSON.stringify(result.run)).not.toContain(clientSecret);
});

test("the Test button: the same login refusal shows Cloud4Wi's message with the secret masked", async () => {
	const { clientSecret } = ctx.sb.credentials;
	ctx.sb.addFault({
		method: 'POST',
		path: '^/v1/sts/login/',
		status: 400,
		times: 2,
		body: { message: `Malformed credentials {"clientSecret":"${clientSecret}"}` },
	});
	const result = await testCredential(ctx.store, CREDENTIAL_ID);
	expect(result.status).toBe('Error');
	expect(result.message).toContain('Malformed credentials {"clientSecret":"***"}');
	expect(result.message).not.toContain(clientSecret);
});

test('an API refusal that quotes the Authorization header: the token is masked, in the error and with Continue On Fail', async () => {
	await runAction(ctx, listSegments); // logs in: a token stored
	const token = storedToken();
	ctx.sb.addFault({
		method: 'GET',
		path: '^/v2/customers/',
		status: 409,
		times: 2,
		body: { message: `Invalid parameter contactId for request with Authorization: Bearer ${token}` },
	});
	const failed = await runAction(ctx, getContact());
	expect(failed.error?.message).toBe('Invalid parameter contactId for request with Authorization: Bearer ***');
	expect(errorText(lastThrownError())).not.toContain(token);
	const item = await runAction(ctx, getContact(), [{}], { continueOnFail: true });
	expect(item.json).toEqual([
		expect.objectContaining({ error: 'Invalid parameter contactId for request with Authorization: Bearer ***' }),
	]);
	expect(JSON.stringify(item.run)).not.toContain(token);
});

test('a redirect to an address that holds the token: the address is named with the token masked', async () => {
	await runAction(ctx, listSegments);
	const token = storedToken();
	ctx.sb.addFault({
		method: 'GET',
		path: '^/v2/customers/',
		status: 302,
		location: `https://elsewhere.example/t/${token}`,
	});
	const result = await runAction(ctx, getContact());
	expect(result.error?.message).toBe(
		'Cloud4Wi answered with a redirect (HTTP 302) to https://elsewhere.example/t/***, which was not followed',
	);
	expect(errorText(lastThrownError())).not.toContain(token);
});
