/**
 * Found by the fifth audit: a client secret quoted back form-encoded (application/x-www-form-urlencoded, as URLSearchParams, Java's
 * URLEncoder or PHP's urlencode write it: a space as `+`, `! ' ( ) ~` as `%21 %27 %28 %29 %7E`) is the secret too. Only
 * encodeURIComponent's form was masked before.
 */
import type { TestContext } from '../harness/cloud4wi';
import { CREDENTIAL_ID, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { errorText, lastThrownError, testCredential } from '../harness/engine';

const formEncoded = (secret: string) =>
	new URLSearchParams({ clientSecret: secret }).toString().slice('clientSecret='.length);

let ctx: TestContext;
afterEach(async () => await ctx?.sb.close());

test.each(['Sx 9q2f k7Lm', "Sx9!q(k)~'2f"])(
	'secret %j quoted form-encoded in a login refusal: masked in the run and under the Test button',
	async (secret) => {
		ctx = await startCloud4Wi({ clientSecret: secret });
		const quoted = formEncoded(secret);
		expect(quoted).not.toBe(secret);
		expect(quoted).not.toBe(encodeURIComponent(secret));
		ctx.sb.addFault({
			method: 'POST',
			path: '^/v1/sts/login/',
			status: 400,
			times: 3,
			body: { message: `Rejected clientKey=demo&clientSecret=${quoted}&grant=client` },
		});
		const result = await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toContain('Rejected clientKey=demo&clientSecret=***&grant=client');
		const thrown = errorText(lastThrownError());
		const tested = await testCredential(ctx.store, CREDENTIAL_ID);
		expect(tested.status).toBe('Error');
		const seen = thrown + JSON.stringify(result.run) + tested.message;
		expect(seen).not.toContain(quoted);
	},
);

test('an API answer quoting the login body form-encoded: the secret is masked in the error', async () => {
	const secret = 'Sx 9q2f k7Lm';
	ctx = await startCloud4Wi({ clientSecret: secret });
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in
	const quoted = formEncoded(secret);
	ctx.sb.addFault({
		method: 'GET',
		path: '^/v2/customers/',
		status: 409,
		times: 2,
		body: { message: `Conflict with session opened by clientSecret=${quoted}` },
	});
	const result = await runAction(ctx, {
		resource: 'contact',
		operation: 'get',
		contactId: ctx.sb.data.contacts[0]!.cid,
	});
	expect(result.error?.message).toBe('Conflict with session opened by clientSecret=***');
	expect(errorText(lastThrownError()) + JSON.stringify(result.run)).not.toContain(quoted);
});
