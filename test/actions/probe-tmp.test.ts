import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { TestContext } from '../harness/cloud4wi';
import { runAction, startCloud4Wi } from '../harness/cloud4wi';

let ctx: TestContext;
beforeAll(async () => { ctx = await startCloud4Wi(); });
afterAll(async () => await ctx.sb.close());
test('probe', async () => {
	let r2: any = (await runAction(ctx, { resource: "hotspot", operation: "get", hotspotId: "nope" }));
	const r = await runAction(ctx, { resource: 'hotspot', operation: 'get', hotspotId: 'a/b' });
	console.log(Object.keys(r.error!), (r.error as any).name, r.error!.stack?.split('\n')[0], Object.keys(r2.error ?? {}), r2.error.name, r2.error.stack.split("\n")[0],  r.error instanceof NodeOperationError, r.error?.message, r.error?.description, JSON.stringify((r.error as any)?.context));
	r2 = await runAction(ctx, { resource: 'hotspot', operation: 'get', hotspotId: 'nope' });
	console.log(r2.error?.constructor.name, r2.error instanceof NodeApiError, r2.error?.message, r2.error?.description, r2.error?.httpCode, JSON.stringify(ctx.sb.requests.map(q=>[q.method,q.path,q.query])));
	const r3 = await runAction(ctx, { resource: 'event', operation: 'getAll', limit: 0 });
	console.log(r3.error?.message);
	const r4 = await runAction(ctx, { resource: 'location', operation: 'create', name: 'x', timezone: 'Europe/Rome', country: 'IT', address: 'a', city: 'c', state: 's', zip: 'z', loginProfileId: 'lp', locationProfileId: 'lpr', welcomePortalId: 'wp', additionalFields: { categoryName: '={{"spaceship"}}' } });
	console.log(r4.error?.message);
	const r5 = await runAction(ctx, { resource: 'location', operation: 'create', name: 'x', timezone: 'Europe/Rome', country: 'IT', address: 'a', city: 'c', state: 's', zip: 'z', loginProfileId: 'lp', locationProfileId: 'lpr', welcomePortalId: 'wp' });
	console.log(r5.error?.message, JSON.stringify(ctx.sb.requests.at(-1)));
});
