import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { TestContext } from '../../harness/cloud4wi';
import { runAction, startCloud4Wi } from '../../harness/cloud4wi';

let ctx: TestContext;
afterEach(async () => await ctx.sb.close());

/** Update Opt-Ins of the first contact, answered 207 with `answer`. */
async function partly(answer: IDataObject, optIn: INodeParameters[], options: INodeParameters = {}) {
	ctx = await startCloud4Wi();
	const contactId = ctx.sb.data.contacts[0]!.cid;
	ctx.sb.addFault({ method: 'PUT', path: '/policies$', status: 207, body: answer });
	const result = await runAction(ctx, {
		resource: 'contact',
		operation: 'updateOptIns',
		contactId,
		optIns: { optIn },
		options,
	});
	return { contactId, result };
}

test('a 207 is never reported as all updated, and fails the item with Error If Some Not Updated', async () => {
	const { result } = await partly(
		{ mktgCommunications: true, 'customs.Loyalty Club': false }, // the custom opt-in was not applied
		[
			{ policy: 'mktgCommunications', accepted: true },
			{ policy: 'custom', customTitle: 'Loyalty Club', accepted: false },
		],
		{ failOnPartial: true },
	);
	expect(result.error).toBeDefined();
});

test('a 207 that lists a policy with another value than asked: that policy is named as not updated', async () => {
	const { contactId, result } = await partly(
		{ mktgCommunications: true, profiling: false }, // profiling kept its old value
		[
			{ policy: 'mktgCommunications', accepted: true },
			{ policy: 'profiling', accepted: true },
		],
	);
	expect(result.error).toBeUndefined();
	expect(result.json).toEqual([
		{ contactId, allUpdated: false, notUpdated: ['profiling'], optIns: { mktgCommunications: true, profiling: false } },
	]);
});
