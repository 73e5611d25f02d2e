import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { LoggedRequest } from '../sandbox';
import type { TestContext } from '../harness/cloud4wi';
import { ACTION_TYPE, node, runAction, startCloud4Wi, triggerWorkflow } from '../harness/cloud4wi';
import { buildWorkflow, lastThrownError, loadOptionsOf, pollOnce } from '../harness/engine';

const REPEATED = 'Cloud4Wi sent the same page again';
const repeatedDescription = (page: number, earlier: number) =>
	`Page ${page} held the same records as page ${earlier}, so the listing was stopped and nothing is repeated. Cloud4Wi may be ignoring the scroll ID or offset: try again later.`;
/** Far more repeats than any listing here should ask for: without the check, each one would be handed on. */
const MANY = 20;

let ctx: TestContext;
let org: string;

const apiRequests = (path: string): LoggedRequest[] => ctx.sb.requests.filter((r) => r.path === path);

function expectStopped(page: number, earlier: number): void {
	const error = lastThrownError() as NodeApiError;
	expect(error).toBeInstanceOf(NodeApiError);
	expect(error.message).toBe(REPEATED);
	expect(error.description).toBe(repeatedDescription(page, earlier));
}

beforeAll(async () => {
	ctx = await startCloud4Wi({ contacts: 25_000, events: 15_000, connections: 15_000, hotspots: 2_500 });
	org = ctx.sb.organizationId;
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in once, up front
});

afterAll(async () => await ctx.sb.close());

beforeEach(() => {
	ctx.sb.clearRequests();
	ctx.sb.clearFaults();
});

describe('a service that ignores the offset or the scroll id', () => {
	test('Hotspot Get Many, Return All: stops at the repeated second page, returns nothing twice', async () => {
		const path = `/v3/hotspots/organizations/${org}`;
		ctx.sb.addFault({ method: 'GET', path: '^/v3/hotspots/organizations/', repeat: true, skip: 1, times: MANY });
		const result = await runAction(ctx, { resource: 'hotspot', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe(REPEATED);
		expectStopped(2, 1);
		expect(result.json).toEqual([]);
		expect(apiRequests(path).map((r) => r.query)).toEqual([
			{ limit: '1000', offset: '0' },
			{ limit: '1000', offset: '999' },
		]);
	});

	test('the hotspot dropdown fails with the same error instead of loading without end', async () => {
		const path = `/v3/hotspots/organizations/${org}`;
		ctx.sb.addFault({ method: 'GET', path: '^/v3/hotspots/organizations/', repeat: true, skip: 1, times: MANY });
		const action = node('Cloud4Wi', ACTION_TYPE, { resource: 'hotspot', operation: 'get' });
		await expect(loadOptionsOf(ctx.store, action, 'getHotspots')).rejects.toMatchObject({
			message: REPEATED,
			description: repeatedDescription(2, 1),
		});
		expect(apiRequests(path).map((r) => r.query)).toEqual([
			{ limit: '1000', offset: '0' },
			{ limit: '1000', offset: '999' },
		]);
	});

	test('Contact Get Many, Return All: the same scroll id and the same records again stop the listing', async () => {
		const path = `/v2/customers/organizations/${org}`;
		ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/organizations/', repeat: true, skip: 1, times: MANY });
		const result = await runAction(ctx, { resource: 'contact', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe(REPEATED);
		expectStopped(2, 1);
		expect(result.json).toEqual([]);
		const calls = apiRequests(path);
		expect(calls).toHaveLength(2);
		expect(calls[0].query).toEqual({ size: '10000' });
		expect(calls[1].query).toEqual({ size: '10000', sid: expect.any(String) });
	});

	test('Event Get Many, Return All: stops at the repeated page', async () => {
		const path = `/v1/organizations/${org}/events`;
		ctx.sb.addFault({ method: 'GET', path: '/events$', repeat: true, skip: 1, times: MANY });
		const result = await runAction(ctx, { resource: 'event', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe(REPEATED);
		expectStopped(2, 1);
		expect(result.json).toEqual([]);
		const calls = apiRequests(path);
		expect(calls).toHaveLength(2);
		expect(calls[0].query).toMatchObject({ enableScroll: 'true', size: '10000' });
		expect(calls[1].query).toEqual({ enableScroll: 'true', scrollId: expect.any(String), size: '10000' });
	});

	test('WiFi Connection Get Many, Return All: records without an id are told apart by their content', async () => {
		const path = `/v2/organizations/${org}/accountings`;
		ctx.sb.addFault({ method: 'GET', path: '/accountings$', repeat: true, skip: 1, times: MANY });
		const result = await runAction(ctx, { resource: 'wifiConnection', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toBe(REPEATED);
		expectStopped(2, 1);
		expect(result.json).toEqual([]);
		expect(apiRequests(path).map((r) => r.query)).toEqual([
			{ size: '10000' },
			{ size: '10000', sid: expect.any(String) },
		]);
	});

	test('without the fault, the same listings still read every record once (same scroll id on every page is fine)', async () => {
		const contacts = await runAction(ctx, { resource: 'contact', operation: 'getAll', returnAll: true });
		expect(contacts.error).toBeUndefined();
		expect(contacts.json).toHaveLength(25_000);
		expect(new Set(contacts.json.map((c) => c.cid)).size).toBe(25_000);
		const calls = apiRequests(`/v2/customers/organizations/${org}`);
		expect(calls).toHaveLength(3);
		expect(calls[2].query.sid).toBe(calls[1].query.sid);
	});
});

describe('a service that sends more records than it announced', () => {
	/** A scripted page of contacts: its own ids, a growing totalCount, and the same scroll id every time. */
	const page = (number: number, count: number, totalCount: number): IDataObject => ({
		generated: new Date(ctx.sb.clock.now()).toISOString(),
		totalCount,
		count,
		sId: 'one-scroll-id',
		customers: Array.from({ length: count }, (_, i) => ({ cid: `page${number}-${i}`, firstName: 'Guest' })),
	});

	test('more than the first totalCount and a page stops the listing before the extra records are handed on', async () => {
		const path = `/v2/customers/organizations/${org}`;
		// Each answer raises totalCount past what was read, so "read them all" never comes; the last page is short.
		const script = [page(1, 10_000, 10_001), page(2, 10_000, 20_001), page(3, 10_000, 30_001), page(4, 5, 30_005)];
		for (const body of script) {
			ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/organizations/', status: 200, body: body as object });
		}
		const parameters: INodeParameters = { resource: 'contact', operation: 'getAll', returnAll: true };
		const result = await runAction(ctx, parameters);
		expect(result.error?.message).toBe('Cloud4Wi sent more records than the 10001 it announced');
		const error = lastThrownError() as NodeApiError;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.description).toBe(
			'After 30000 records on 3 pages the listing was stopped so that it cannot run on without end. Try again later.',
		);
		expect(result.json).toEqual([]);
		// The same scroll id on pages 1 and 2 was followed: it is the count, not the id, that stopped the listing.
		expect(apiRequests(path).map((r) => r.query)).toEqual([
			{ size: '10000' },
			{ size: '10000', sid: 'one-scroll-id' },
			{ size: '10000', sid: 'one-scroll-id' },
		]);
	});
});

describe("the trigger's reading of events", () => {
	test('a repeated page hands over the new events read before it; with nothing new it fails; nothing is emitted twice', async () => {
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'] }));
		const path = `/v1/organizations/${org}/events`;
		await pollOnce(workflow, ctx.store, 'Trigger'); // activation: records the start (from the service's clock)
		ctx.sb.clearRequests();
		ctx.sb.clock.advance(1000);
		const base = ctx.sb.clock.now();
		const burst = ctx.sb.injectEvents(
			Array.from({ length: 25_000 }, (_, i) => ({ type: 'signup' as const, createdAt: base + i })),
		);
		const burstIds = burst.map((e) => e.event.id);
		ctx.sb.clock.advance(60_000);
		const idsOf = (emitted: Array<{ json: IDataObject }> | null) =>
			(emitted ?? []).map((i) => String((i.json.event as IDataObject).id));

		// The service repeats its second page for as long as it is asked: the poll stops there, well inside its budget.
		ctx.sb.addFault({ method: 'GET', path: '/events$', repeat: true, skip: 1, times: 1000 });
		const started = Date.now();
		const first = await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 20_000);
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(idsOf(first.emitted)).toEqual(burstIds.slice(0, 10_000));
		expect(first.run?.output('Done')).toHaveLength(10_000);
		const firstCalls = apiRequests(path);
		expect(firstCalls).toHaveLength(2);
		expect(firstCalls[1].query).toMatchObject({ scrollId: expect.any(String), size: '10000' });

		// Next poll: its first page holds only events already emitted, then the repeat: an error, and nothing moves.
		ctx.sb.clearFaults();
		ctx.sb.clearRequests();
		ctx.sb.addFault({ method: 'GET', path: '/events$', repeat: true, skip: 1, times: 1000 });
		const before = JSON.stringify(workflow.staticData);
		await expect(pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 20_000)).rejects.toThrow(REPEATED);
		expect(apiRequests(path)).toHaveLength(2);
		expect(JSON.stringify(workflow.staticData)).toBe(before);

		// The service mended: the rest, once, in time order.
		ctx.sb.clearFaults();
		const third = await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 20_000);
		expect(idsOf(third.emitted)).toEqual(burstIds.slice(10_000));
		expect((await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 20_000)).emitted).toBeNull();
	}, 60_000);
});
