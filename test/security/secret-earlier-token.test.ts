/**
 * Found by the fifth audit: a token the run sent, quoted back by Cloud4Wi after the run renewed its token (another item's 403 made it log
 * in meanwhile), must be masked like the current one: the old token may still be valid for a day.
 */
import type { TestContext } from '../harness/cloud4wi';
import { CREDENTIAL_ID, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { errorText, lastThrownError } from '../harness/engine';

let ctx: TestContext;
beforeEach(async () => {
	ctx = await startCloud4Wi();
});
afterEach(async () => await ctx.sb.close());

/**
 * Two Contact Get items sent with the stored token T1: the first is refused with 403 (the vendor's word for an expired
 * token too), so the node logs in again (T2); the second answers after that renewal and quotes the header it got (T1).
 */
async function renewalBesideAQuote(options: { continueOnFail?: boolean } = {}) {
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in: T1 stored
	const oldToken = String(ctx.store.stored(CREDENTIAL_ID).sessionToken);
	expect(oldToken.length).toBeGreaterThan(20);
	const [a, b] = [ctx.sb.data.contacts[0]!.cid, ctx.sb.data.contacts[1]!.cid];
	ctx.sb.addFault({ method: 'GET', path: `^/v2/customers/${a}$`, status: 403, body: { message: 'Forbidden' } });
	ctx.sb.addFault({
		method: 'GET',
		path: `^/v2/customers/${b}$`,
		status: 409,
		delayMs: 600,
		times: 2,
		body: { message: `Invalid parameter contactId for request with Authorization: Bearer ${oldToken}` },
	});
	const items = [{ cid: a }, { cid: b }];
	const result = await runAction(
		ctx,
		{ resource: 'contact', operation: 'get', contactId: '={{ $json.cid }}' },
		items,
		options,
	);
	// The renewal did happen: a new token is stored, and the old one is still valid at Cloud4Wi.
	expect(String(ctx.store.stored(CREDENTIAL_ID).sessionToken)).not.toBe(oldToken);
	return { oldToken, result };
}

test('an answer quoting the token it was sent with, read after another item renewed the token: that token is masked', async () => {
	const { oldToken, result } = await renewalBesideAQuote({ continueOnFail: true });
	expect(result.json[1]).toEqual(
		expect.objectContaining({ error: 'Invalid parameter contactId for request with Authorization: Bearer ***' }),
	);
	expect(JSON.stringify(result.run)).not.toContain(oldToken);
});

test('the same without Continue On Fail: the error the run stops with does not hold the old token', async () => {
	const { oldToken, result } = await renewalBesideAQuote();
	expect(result.error?.message).toBe('Invalid parameter contactId for request with Authorization: Bearer ***');
	expect(errorText(lastThrownError())).not.toContain(oldToken);
	expect(JSON.stringify(result.run)).not.toContain(oldToken);
});
