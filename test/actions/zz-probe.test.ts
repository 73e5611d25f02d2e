import type { TestContext } from '../harness/cloud4wi';
import { runAction, startCloud4Wi } from '../harness/cloud4wi';

let ctx: TestContext;
beforeAll(async () => (ctx = await startCloud4Wi()));
afterAll(async () => await ctx.sb.close());
test('probe', async () => {
	let r = await runAction(ctx, { resource: 'contact', operation: 'getAll', limit: 0 });
	console.log('limit0', Object.keys(r.error!), r.error?.name, (r.error as any).constructor?.name);
	const nodeErr = r.run.data.resultData.runData.Cloud4Wi?.[0]?.error as any;
	console.log('runData error', nodeErr?.constructor?.name, nodeErr && Object.keys(nodeErr), nodeErr?.name);
	r = await runAction(ctx, { resource: 'contact', operation: 'get', contactId: 'nope' });
	console.log('404', Object.keys(r.error!), r.error?.name);
	const e2 = r.run.data.resultData.runData.Cloud4Wi?.[0]?.error as any;
	console.log('runData error', e2?.constructor?.name, e2?.name, e2?.httpCode, e2?.description);
});
