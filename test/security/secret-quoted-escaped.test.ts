/**
 * A client secret with characters that serializers escape (`"`, `/`, `+`, `<`), quoted back by Cloud4Wi in a form other
 * than the one sent: the login body echoed inside the message (quoted JSON in a JSON string), written by a serializer
 * that escapes `/` and `+`, or URL-encoded. No form of the secret reaches the error or the execution's data.
 */
import type { TestContext } from '../harness/cloud4wi';
import { CREDENTIAL_ID, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { errorText, lastThrownError, testCredential } from '../harness/engine';

const SECRET = 'Sx"9/q+<k>\\w-2f';
let ctx: TestContext;
beforeEach(async () => {
	ctx = await startCloud4Wi({ clientSecret: SECRET });
});
afterEach(async () => await ctx.sb.close());

/** Every way the secret can be written in a message: as is, JSON-escaped (once, twice), URL-encoded. */
const forms = () => {
	const once = JSON.stringify(SECRET).slice(1, -1);
	return [SECRET, once, JSON.stringify(once).slice(1, -1), encodeURIComponent(SECRET), 'Sx', '9/q', '<k>'];
};
/** JSON as a .NET or PHP service writes it: `/` as `\/`, `+ < >` as `\u002B \u003C \u003E`. */
const escapedJson = (value: unknown) =>
	JSON.stringify(value)
		.replace(/\//g, '\\/')
		.replace(/[+<>]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`);

const listSegments = { resource: 'segment', operation: 'getAll', returnAll: true };
const logins = () => ctx.sb.requests.filter((r) => r.path.startsWith('/v1/sts/login')).length;

test('a login refusal that quotes the login body inside its message, escaped: the secret is masked', async () => {
	const { clientKey } = ctx.sb.credentials;
	const body = JSON.stringify({ clientKey, clientSecret: SECRET });
	ctx.sb.addFault({
		method: 'POST',
		path: '^/v1/sts/login/',
		status: 400,
		rawBody: escapedJson({ message: `Malformed credentials ${body}` }),
		contentType: 'application/json',
	});
	const result = await runAction(ctx, listSegments);
	expect(result.error?.message).toBe(
		`Cloud4Wi login failed (HTTP 400): Malformed credentials {"clientKey":"${clientKey}","clientSecret":"***"}. Check the base URL of the Cloud4Wi credential.`,
	);
	expect(logins()).toBe(1);
	expect(ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login'))).toHaveLength(0); // nothing sent after
	const seen = errorText(lastThrownError()) + JSON.stringify(result.run);
	for (const form of forms()) expect(seen).not.toContain(form);
});

test('a login refusal that quotes the secret URL-encoded: masked, in a run and under the Test button', async () => {
	ctx.sb.addFault({
		method: 'POST',
		path: '^/v1/sts/login/',
		status: 400,
		times: 3,
		body: { message: `Rejected clientSecret=${encodeURIComponent(SECRET)}&grant=client` },
	});
	const result = await runAction(ctx, listSegments);
	expect(result.error?.message).toContain('Rejected clientSecret=***&grant=client');
	const tested = await testCredential(ctx.store, CREDENTIAL_ID);
	expect(tested.status).toBe('Error');
	expect(tested.message).toContain('Rejected clientSecret=***&grant=client');
	const seen = errorText(lastThrownError()) + JSON.stringify(result.run) + tested.message;
	for (const form of forms()) expect(seen).not.toContain(form);
});

test('an API refusal that quotes the login body, twice escaped: the secret is masked in the error and the item', async () => {
	await runAction(ctx, listSegments); // logs in with the hostile secret
	const inner = JSON.stringify({ clientSecret: SECRET });
	ctx.sb.addFault({
		method: 'GET',
		path: '^/v2/customers/',
		status: 409,
		times: 2,
		rawBody: escapedJson({ message: `Conflict with session opened by ${JSON.stringify(inner)}` }),
		contentType: 'application/json',
	});
	const getContact = { resource: 'contact', operation: 'get', contactId: ctx.sb.data.contacts[0]!.cid };
	const failed = await runAction(ctx, getContact);
	expect(failed.error?.message).toMatch(/^Conflict with session opened by .*\*\*\*/);
	const thrown = errorText(lastThrownError());
	const item = await runAction(ctx, getContact, [{}], { continueOnFail: true });
	expect(item.json).toEqual([expect.objectContaining({ error: expect.stringContaining('***') })]);
	const seen = thrown + JSON.stringify(failed.run) + JSON.stringify(item.run);
	for (const form of forms()) expect(seen).not.toContain(form);
});
