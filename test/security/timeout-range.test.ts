/**
 * Found by the fifth audit: the Timeout request option had a floor (1000 ms) but no ceiling. Node's timers hold at most 2^31-1 ms: a
 * Timeout from 2^31 ms up fires after ~1 ms, so each request is started and aborted at once (racing its own send: a
 * write "may or may not have been applied"; a read is tried 5 times over 7.5 s, then "did not answer within
 * 2147483.6 s"), and without a stored token the login fails at once as "no token within 30 s"; from 2^32 ms up
 * AbortSignal.timeout throws a RangeError, surfaced with an empty message that names no field. An out-of-range Timeout must be refused like one below 1000: a
 * NodeOperationError naming "Request Options > Timeout", and nothing sent. Max Concurrent Requests is checked the same way
 * (0 would start no request and output nothing).
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { startCloud4Wi, runAction } from '../harness/cloud4wi';
import { lastThrownError } from '../harness/engine';

let ctx: TestContext;
beforeEach(async () => {
	ctx = await startCloud4Wi({ contacts: 3 });
	// A credential in use: a token is stored (a first run logged in).
	const first = await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true });
	expect(first.error).toBeUndefined();
	ctx.sb.clearRequests();
});
afterEach(async () => {
	await ctx.sb.close();
});

/** A delete with this Request Option: refused naming it, nothing sent, nothing deleted. */
async function refused(option: INodeParameters, message: RegExp | string) {
	const cid = ctx.sb.data.contacts[0]!.cid;
	const result = await runAction(ctx, {
		resource: 'contact',
		operation: 'delete',
		contactId: cid,
		requestOptions: option,
	});
	expect(result.error?.message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
	expect(lastThrownError()).toBeInstanceOf(NodeOperationError);
	expect(ctx.sb.requests).toEqual([]);
	expect(ctx.sb.data.contacts.has(cid)).toBe(true);
}

// Before: 2^31..2^32-1 gave a NodeApiError "Cloud4Wi did not answer within 2147483.6 s" after ~1 ms; 2^32 and up a
// RangeError from AbortSignal.timeout, wrapped with no field name.
test.each([2 ** 31, 3_000_000_000, 2 ** 32, 10_000_000_000])(
	'Timeout %d ms (past what a timer can hold): refused naming the field, nothing sent, nothing deleted',
	async (ms) => await refused({ timeout: ms }, /^Request Options > Timeout: /),
	30_000,
);

test('Timeout 2^31 ms on a read: refused at once, not five tries each cut off after ~1 ms', async () => {
	const result = await runAction(ctx, {
		resource: 'contact',
		operation: 'get',
		contactId: ctx.sb.data.contacts[0]!.cid,
		requestOptions: { timeout: 2 ** 31 },
	});
	expect(result.error?.message).toMatch(/^Request Options > Timeout: /);
	expect(ctx.sb.requests).toEqual([]);
}, 30_000);

test.each([0, -1, 1.5, 1001])(
	'Max Concurrent Requests %p: refused naming the field and its range, nothing sent, nothing deleted',
	async (max) =>
		await refused(
			{ maxConcurrentRequests: max },
			`Request Options > Max Concurrent Requests: must be a whole number from 1 to 1000, got "${String(max)}"`,
		),
	30_000,
);

test.each([{ timeout: 500 }, { maxConcurrentRequests: 0 }])(
	'Continue On Fail, a Request Option %p out of range: every item comes out with the error, nothing is sent',
	async (option) => {
		// Found by a scan: n8n passed the input items through unchanged, so three deletes that were never sent looked done.
		const cids = ctx.sb.data.contacts.map((c) => c.cid);
		const result = await runAction(
			ctx,
			{ resource: 'contact', operation: 'delete', contactId: '={{ $json.id }}', requestOptions: option },
			cids.map((id) => ({ id })),
			{ continueOnFail: true },
		);
		expect(result.items.map((i) => i.pairedItem)).toEqual(cids.map((_, item) => ({ item })));
		for (const { json } of result.items) expect(String(json.error)).toMatch(/^Request Options > /);
		expect(ctx.sb.requests).toEqual([]);
		expect(cids.every((cid) => ctx.sb.data.contacts.has(cid))).toBe(true);
	},
	30_000,
);
