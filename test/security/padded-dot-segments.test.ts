/**
 * Found by the fifth audit: "..", "." and " .. " (spaces around them) are refused as ids, and every %-decoded and NFKC-normalised reading
 * of an id is checked for a dot segment, but only the raw value is checked for surrounding spaces. So the same " .. "
 * once %-encoded ("..%20", "%20..", "..%C2%A0" with a no-break space, "%E3%80%80.." with an ideographic space, or
 * double-encoded "..%2520") passes and is sent: a server or proxy that decodes the segment and trims it (Windows/IIS
 * strip trailing spaces and dots from path segments) reads "..", and the request goes one level up. Each must be
 * refused like " .. ": a NodeOperationError naming the field, nothing sent; in the trigger, the contact lookup of an
 * event whose customerId is such a value must not be sent either.
 */
import type { INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { runAction, startCloud4Wi, triggerWorkflow } from '../harness/cloud4wi';
import { buildWorkflow, lastThrownError, pollOnce } from '../harness/engine';

const PADDED = ['..%20', '%20..', '%20..%20', '.%20', '..%C2%A0', '%E3%80%80..', '..%2520', '..%E3%80%80'];

let ctx: TestContext;
beforeAll(async () => {
	ctx = await startCloud4Wi({ contacts: 3 });
});
afterAll(async () => {
	await ctx.sb.close();
});
beforeEach(() => ctx.sb.clearRequests());

test('the raw " .. " is refused (the rule the encoded forms escaped before)', async () => {
	await runAction(ctx, { resource: 'contact', operation: 'get', contactId: ' .. ' });
	// trimmed by the field reader, then refused as a dot segment
	expect(lastThrownError()).toBeInstanceOf(NodeOperationError);
	expect(ctx.sb.requests).toEqual([]);
});

describe.each([
	['contact', 'get', 'contactId', 'Contact ID'],
	['contact', 'delete', 'contactId', 'Contact ID'],
	['event', 'getAllForContact', 'contactId', 'Contact ID'],
])('%s %s, %s', (resource, operation, field, label) => {
	test.each(PADDED)('%j (a dot segment once decoded and trimmed): refused, nothing sent', async (value) => {
		const params: INodeParameters = { resource, operation, [field]: value, returnAll: true };
		const result = await runAction(ctx, params);
		// Before: sent as e.g. /v2/customers/..%2520
		expect(ctx.sb.requests.map((r) => `${r.method} ${r.path}`).filter((p) => !p.includes('/sts/login'))).toEqual([]);
		expect(result.error).toBeDefined();
		expect(lastThrownError()).toBeInstanceOf(NodeOperationError);
		expect((lastThrownError() as Error).message.startsWith(`${label}: `)).toBe(true);
	});
});

test('the trigger\'s Include Contact Profile: an event whose customerId is "..%20" gets no lookup, and says why', async () => {
	const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'], options: { includeContact: true } }));
	ctx.sb.injectEvents({ type: 'signup', customerId: '..%20', createdAt: ctx.sb.clock.now() - 1000 });
	const { emitted } = await pollOnce(workflow, ctx.store, 'Trigger', 'manual');
	expect(emitted).toHaveLength(1);
	const lookups = ctx.sb.requests.filter((r) => r.path.startsWith('/v2/customers/'));
	// Before: GET /v2/customers/..%2520 was sent
	expect(lookups).toEqual([]);
	expect(emitted![0].json.contact).toBeNull();
	expect(String(emitted![0].json.contactError)).toMatch(/contact ID/);
});
