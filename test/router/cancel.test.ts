import type { TestContext } from '../harness/cloud4wi';
import { actionWorkflow, apiCalls, startCloud4Wi } from '../harness/cloud4wi';
import { buildWorkflow, runWorkflow } from '../harness/engine';

let ctx: TestContext;
afterEach(async () => await ctx.sb.close());

const getContacts = { resource: 'contact', operation: 'get', contactId: '={{ $json.cid }}' };
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `items` and stops the run once `when()`; the requests that reached the service over a second after the stop. */
async function stoppedWhen(items: Array<{ cid: string }>, when: () => boolean, parameters: object = getContacts) {
	let stoppedAt = Number.POSITIVE_INFINITY;
	const result = await runWorkflow(buildWorkflow(actionWorkflow(parameters as never, items)), ctx.store, {
		onStart: (cancel) => {
			const check = setInterval(() => {
				if (!when()) return;
				clearInterval(check);
				stoppedAt = ctx.sb.clock.now();
				cancel();
			}, 1);
		},
	});
	await wait(1500);
	return { result, late: ctx.sb.requests.filter((r) => r.at > stoppedAt + 500) };
}

const itemsOf = (n: number) => Array.from({ length: n }, (_, i) => ({ cid: ctx.sb.data.contacts[i % 50]!.cid }));

test('stopped after 40 of 400 items: nothing more is sent', async () => {
	ctx = await startCloud4Wi({ contacts: 50, latencyMs: 20 });
	const { result, late } = await stoppedWhen(itemsOf(400), () => apiCalls(ctx.sb).length >= 40, {
		...getContacts,
		requestOptions: { maxConcurrentRequests: 8 },
	});
	expect(result.run.status).toBe('canceled');
	expect(late).toEqual([]);
	expect(apiCalls(ctx.sb).length).toBeLessThan(60);
});

test.each([
	['a 429 pause', { status: 429, retryAfter: 1 }],
	['a 5xx back-off', { status: 503 }],
])('stopped during %s: nothing more is sent', async (_name, fault) => {
	ctx = await startCloud4Wi({ contacts: 50 });
	ctx.sb.addFault({ path: '^/v2/customers/', times: 1000, ...fault });
	const { result, late } = await stoppedWhen(itemsOf(20), () => apiCalls(ctx.sb).length >= 1);
	expect(result.run.status).toBe('canceled');
	expect(late).toEqual([]);
});

test('another execution sharing the credential goes on unharmed', async () => {
	ctx = await startCloud4Wi({ contacts: 50, latencyMs: 20 });
	const parameters = { ...getContacts, requestOptions: { maxConcurrentRequests: 4 } };
	const other = runWorkflow(buildWorkflow(actionWorkflow(parameters, itemsOf(200))), ctx.store);
	const [done] = await Promise.all([other, stoppedWhen(itemsOf(200), () => apiCalls(ctx.sb).length >= 30, parameters)]);
	expect(done.error).toBeUndefined();
	expect(done.output('Cloud4Wi')).toHaveLength(200);
});
