import type { IDataObject, INodeExecutionData, Workflow } from 'n8n-workflow';

import type { InjectedEvent } from '../sandbox';
import type { TestContext } from '../harness/cloud4wi';
import { startCloud4Wi, triggerWorkflow } from '../harness/cloud4wi';
import { buildWorkflow, pollOnce } from '../harness/engine';
import { eventId } from '../../nodes/Cloud4Wi/shared/events';

const MINUTE = 60_000;

interface Injected {
	id: string;
	type: string;
}

/** Emitted event ids of one poll (the items the workflow received), in order. */
async function poll(ctx: TestContext, workflow: Workflow): Promise<string[]> {
	const { emitted, run } = await pollOnce(workflow, ctx.store, 'Trigger');
	if (!emitted) return [];
	expect(run?.error).toBeUndefined();
	// What the next node received is exactly what the trigger emitted.
	expect(run?.output('Done').map((i) => i.json)).toEqual(emitted.map((i) => i.json));
	return emitted.map((i) => String(((i.json.event ?? i.json) as IDataObject).id));
}

function inject(ctx: TestContext, events: IDataObject[]): Injected[] {
	return ctx.sb
		.injectEvents(events as InjectedEvent[])
		.map((e) => ({ id: String(e.event.id), type: String(e.event.type) }));
}

function ids(events: Injected[], kinds?: string[]): string[] {
	return events.filter((e) => !kinds || kinds.includes(e.type)).map((e) => e.id);
}

const sorted = (list: string[]) => [...list].sort();

/** How many event ids the trigger keeps in its static data. */
function rememberedIds(workflow: Workflow): number {
	const nodeData = workflow.staticData['node:Trigger'] as IDataObject | undefined;
	return Object.keys(((nodeData?.state as IDataObject | undefined)?.seen as IDataObject | undefined) ?? {}).length;
}

describe('Cloud4Wi Trigger', () => {
	let ctx: TestContext;
	afterEach(async () => await ctx.sb.close());

	test('first poll only records where to start; then each new signup or visit once, other kinds never', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup', 'visit'] }));
		expect(await poll(ctx, workflow)).toEqual([]); // history is not replayed
		const injected = inject(ctx, [
			{ type: 'signup' },
			{ type: 'visit' },
			{ type: 'login' },
			{ type: 'signup' },
			{ type: 'click_email' },
			{ type: 'visit' },
		]);
		const first = await poll(ctx, workflow);
		expect(sorted(first)).toEqual(sorted(ids(injected, ['signup', 'visit'])));
		ctx.sb.clearRequests();
		expect(await poll(ctx, workflow)).toEqual([]);
		// A poll with nothing new costs one request, filtered on the server.
		expect(ctx.sb.requests).toHaveLength(1);
		expect(ctx.sb.requests[0]).toMatchObject({
			method: 'GET',
			path: `/v1/organizations/${ctx.sb.organizationId}/events`,
			query: expect.objectContaining({
				events: 'signup,visit',
				sortBy: 'utcTime',
				enableScroll: 'true',
				size: '10000',
			}),
		});
	});

	test('a Cloud4Wi whose clock is a day behind n8n’s: activation starts at its clock, and every signup after it arrives once', async () => {
		ctx = await startCloud4Wi({ now: Date.now() - 24 * 60 * MINUTE });
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'] }));
		const before = inject(ctx, [{ type: 'signup', createdAt: new Date(ctx.sb.clock.now() - 1000).toISOString() }]);
		expect(await poll(ctx, workflow)).toEqual([]);
		// One small read for the service's clock at activation.
		expect(ctx.sb.requests.filter((r) => !r.path.includes('/sts/'))).toEqual([
			expect.objectContaining({
				method: 'GET',
				path: `/v1/organizations/${ctx.sb.organizationId}/events`,
				query: { dateStart: expect.any(String), size: '1' },
			}),
		]);
		ctx.sb.clock.advance(1000);
		const after = inject(ctx, [{ type: 'signup' }, { type: 'signup' }]);
		expect(sorted(await poll(ctx, workflow))).toEqual(sorted(ids(after)));
		expect(await poll(ctx, workflow)).toEqual([]); // and the signup from before activation never
		expect(ids(before)).toHaveLength(1);
	});

	test('an activation whose clock read keeps failing fails with the service’s reason and remembers nothing; the next one starts', async () => {
		ctx = await startCloud4Wi({ now: Date.now() - 24 * 60 * MINUTE });
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'] }));
		ctx.sb.addFault({ path: '/events$', status: 503, times: 10, retryAfter: 0 });
		await expect(pollOnce(workflow, ctx.store, 'Trigger')).rejects.toThrow(/503|unavailable/i);
		expect((workflow.staticData['node:Trigger'] as IDataObject | undefined)?.state).toBeUndefined();
		ctx.sb.clearFaults();
		expect(await poll(ctx, workflow)).toEqual([]);
		ctx.sb.clock.advance(1000);
		const after = inject(ctx, [{ type: 'signup' }]);
		expect(await poll(ctx, workflow)).toEqual(ids(after));
	});

	test('a Cloud4Wi clock ahead of n8n’s: activation starts at n8n’s clock, so nothing created after it is missed', async () => {
		ctx = await startCloud4Wi({ now: Date.now() + 60 * MINUTE });
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'] }));
		expect(await poll(ctx, workflow)).toEqual([]);
		const since = (workflow.staticData['node:Trigger'] as { state: { since: number } }).state.since;
		expect(since).toBeLessThanOrEqual(Date.now());
		expect(since).toBeGreaterThan(Date.now() - MINUTE);
		const after = inject(ctx, [{ type: 'signup' }]);
		expect(await poll(ctx, workflow)).toEqual(ids(after));
	});

	test('events sharing a timestamp across polls are each emitted once, in time order', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: [] }));
		await poll(ctx, workflow);
		const at = new Date(ctx.sb.clock.now() + 1000).toISOString();
		const a = inject(ctx, [
			{ type: 'signup', createdAt: at },
			{ type: 'visit', createdAt: at },
		]);
		ctx.sb.clock.advance(2000);
		expect(sorted(await poll(ctx, workflow))).toEqual(sorted(ids(a)));
		const b = inject(ctx, [
			{ type: 'login', createdAt: at },
			{ type: 'signup', createdAt: new Date(ctx.sb.clock.now()).toISOString() },
		]);
		const second = await poll(ctx, workflow);
		expect(second).toEqual(ids(b));
		expect(await poll(ctx, workflow)).toEqual([]);
	});

	test('an event that becomes visible up to 10 minutes late is still emitted, once', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'] }));
		await poll(ctx, workflow);
		const t0 = ctx.sb.clock.now();
		const late = inject(ctx, [
			{ type: 'signup', createdAt: new Date(t0 + MINUTE).toISOString(), visibleAfterMs: 9 * MINUTE },
		]);
		ctx.sb.clock.advance(5 * MINUTE);
		const onTime = inject(ctx, [{ type: 'signup', createdAt: new Date(t0 + 4 * MINUTE).toISOString() }]);
		expect(await poll(ctx, workflow)).toEqual(ids(onTime));
		ctx.sb.clock.advance(6 * MINUTE); // the late one is visible now, created well before the last one emitted
		expect(await poll(ctx, workflow)).toEqual(ids(late));
		ctx.sb.clock.advance(30 * MINUTE);
		expect(await poll(ctx, workflow)).toEqual([]);
	});

	test('a burst larger than one page is read to the end with the scroll id, nothing twice', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'] }));
		await poll(ctx, workflow);
		const base = ctx.sb.clock.now() + 1000;
		const burst = inject(
			ctx,
			Array.from({ length: 25_000 }, (_, i) => ({ type: 'signup', createdAt: new Date(base + i).toISOString() })),
		);
		ctx.sb.clock.advance(30_000);
		ctx.sb.clearRequests();
		const emitted = await poll(ctx, workflow);
		expect(emitted).toEqual(ids(burst)); // all, once, in time order
		const calls = ctx.sb.requests.filter((r) => r.path.endsWith('/events'));
		expect(calls).toHaveLength(3);
		expect(calls[0].query).toMatchObject({ enableScroll: 'true', size: '10000' });
		expect(calls[1].query).toMatchObject({ scrollId: expect.any(String), size: '10000' });
		expect(calls[2].query.scrollId).toBe(calls[1].query.scrollId);
		expect(await poll(ctx, workflow)).toEqual([]);
	});

	test('a flood above the remembered-id cap is still emitted once: the window moves up instead', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: ['login'] }));
		await poll(ctx, workflow);
		const base = ctx.sb.clock.now() + 1000;
		const flood = inject(
			ctx,
			Array.from({ length: 55_000 }, (_, i) => ({ type: 'login', createdAt: new Date(base + i * 5).toISOString() })),
		);
		ctx.sb.clock.advance(5 * MINUTE);
		expect((await poll(ctx, workflow)).length).toBe(flood.length);
		expect(rememberedIds(workflow)).toBe(50_000);
		for (let i = 0; i < 3; i++) {
			ctx.sb.clock.advance(MINUTE);
			expect(await poll(ctx, workflow)).toEqual([]);
		}
	});

	test('a failed poll emits nothing and moves nothing; the next poll delivers everything once', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup', 'visit'] }));
		await poll(ctx, workflow);
		const base = ctx.sb.clock.now();
		const events = inject(
			ctx,
			Array.from({ length: 15_000 }, (_, i) => ({
				type: i % 2 ? 'visit' : 'signup',
				createdAt: new Date(base + 1000 + i).toISOString(),
			})),
		);
		ctx.sb.clock.advance(30_000);
		const before = JSON.stringify(workflow.staticData);
		// The second page keeps failing past the retries.
		ctx.sb.addFault({ path: '/events$', status: 503, times: 10, retryAfter: 0, skip: 1 });
		await expect(pollOnce(workflow, ctx.store, 'Trigger')).rejects.toThrow();
		expect(JSON.stringify(workflow.staticData)).toBe(before);
		ctx.sb.clearFaults();
		ctx.sb.addFault({ path: '/events$', status: 429, times: 2, retryAfter: 0 }); // retried within the poll
		expect(await poll(ctx, workflow)).toEqual(ids(events));
		expect(await poll(ctx, workflow)).toEqual([]);
	});

	test('after a restart (static data saved and reloaded) the trigger catches up on what happened while it was down', async () => {
		ctx = await startCloud4Wi();
		const json = triggerWorkflow({ events: ['visit'] });
		let workflow = buildWorkflow(json);
		await poll(ctx, workflow);
		const a = inject(ctx, [{ type: 'visit' }, { type: 'visit' }]);
		expect(sorted(await poll(ctx, workflow))).toEqual(sorted(ids(a)));
		const saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		// n8n is down for an hour; events keep coming.
		ctx.sb.clock.advance(60 * MINUTE);
		const b = inject(
			ctx,
			Array.from({ length: 5 }, (_, i) => ({
				type: 'visit',
				createdAt: new Date(ctx.sb.clock.now() - (50 - i) * MINUTE).toISOString(),
			})),
		);
		workflow = buildWorkflow(json, saved);
		expect(await poll(ctx, workflow)).toEqual(ids(b));
		expect(await poll(ctx, workflow)).toEqual([]);
	});

	test('an expired token between polls is renewed and delivery goes on', async () => {
		ctx = await startCloud4Wi({ expiredStatus: 403 });
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'] }));
		await poll(ctx, workflow); // activation: no request yet
		expect(await poll(ctx, workflow)).toEqual([]); // logs in
		ctx.sb.expireTokens();
		const a = inject(ctx, [{ type: 'signup' }]);
		expect(await poll(ctx, workflow)).toEqual(ids(a));
		expect(ctx.sb.logins).toBe(2);
	});

	test('Fetch Test Event returns the latest matching event and leaves the cursor alone', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'] }));
		await poll(ctx, workflow);
		const state = JSON.stringify(workflow.staticData);
		ctx.sb.clock.advance(2000);
		const a = inject(ctx, [
			{ type: 'signup', createdAt: new Date(ctx.sb.clock.now() - 1000).toISOString() },
			{ type: 'login' },
		]);
		const { emitted } = await pollOnce(workflow, ctx.store, 'Trigger', 'manual');
		expect(emitted?.map((i) => (i.json.event as IDataObject).id)).toEqual([a[0].id]);
		expect(JSON.stringify(workflow.staticData)).toBe(state);
		expect(await poll(ctx, workflow)).toEqual([a[0].id]);
	});

	test('locations, Simplify and the contact profile (fetched once per contact per poll)', async () => {
		ctx = await startCloud4Wi();
		const [here, there] = ctx.sb.data.locations;
		const [alice, bob] = ctx.sb.data.contacts;
		const workflow = buildWorkflow(
			triggerWorkflow({
				events: ['signup', 'visit'],
				options: { locationIds: [here.id], simplify: true, includeContact: true },
			}),
		);
		await poll(ctx, workflow);
		const injected = inject(ctx, [
			{ type: 'signup', customerId: alice.cid, locationId: here.id },
			{ type: 'visit', customerId: alice.cid, locationId: here.id },
			{ type: 'visit', customerId: bob.cid, locationId: here.id },
			{ type: 'visit', customerId: bob.cid, locationId: there.id },
		]);
		ctx.sb.clearRequests();
		const { emitted } = await pollOnce(workflow, ctx.store, 'Trigger');
		const items = (emitted ?? []).map((i) => i.json);
		expect(sorted(items.map((i) => String(i.id)))).toEqual(sorted(injected.slice(0, 3).map((e) => e.id)));
		expect(items[0]).toMatchObject({
			type: expect.any(String),
			contactId: expect.any(String),
			locationId: here.id,
			createdAt: expect.any(String),
		});
		const aliceItem = items.find((i) => i.contactId === alice.cid)!;
		expect(aliceItem.contact).toMatchObject({ id: alice.cid, email: alice.email, firstName: alice.firstName });
		const profileCalls = ctx.sb.requests.filter((r) => r.path.startsWith('/v2/customers/'));
		expect(sorted(profileCalls.map((r) => r.path))).toEqual(
			sorted([`/v2/customers/${alice.cid}`, `/v2/customers/${bob.cid}`]),
		);
	});

	test.each([
		['"false"', false, '={{ "false" }}'],
		['"true"', true, '={{ "true" }}'],
		['0', false, '={{ 0 }}'],
	])('Include Contact Profile and Simplify given as %s by an expression are read as %s', async (_, on, value) => {
		ctx = await startCloud4Wi();
		const [alice] = ctx.sb.data.contacts;
		const workflow = buildWorkflow(
			triggerWorkflow({ events: ['signup'], options: { includeContact: value, simplify: value } }),
		);
		await poll(ctx, workflow);
		inject(ctx, [{ type: 'signup', customerId: alice.cid }]);
		ctx.sb.clearRequests();
		const { emitted } = await pollOnce(workflow, ctx.store, 'Trigger');
		const [item] = (emitted ?? []).map((i) => i.json);
		expect('contact' in item).toBe(on);
		expect('event' in item).toBe(!on); // simplified items have no nested event
		expect(ctx.sb.requests.filter((r) => r.path.startsWith('/v2/customers/'))).toHaveLength(on ? 1 : 0);
	});

	test('an on/off option that is neither true nor false fails the poll naming the option, nothing sent', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(
			triggerWorkflow({ events: ['signup'], options: { includeContact: '={{ "maybe" }}' } }),
		);
		await expect(pollOnce(workflow, ctx.store, 'Trigger')).rejects.toThrow(
			'Options > Include Contact Profile: must be true or false, got "maybe"',
		);
		expect(ctx.sb.requests).toEqual([]);
	});

	test('over many polls with random events, late arrivals and faults, every matching event arrives exactly once and the state stays small', async () => {
		ctx = await startCloud4Wi();
		const kinds = ['signup', 'visit', 'geo_visit'];
		const workflow = buildWorkflow(triggerWorkflow({ events: kinds }));
		await poll(ctx, workflow);
		ctx.sb.clock.advance(5000); // nothing below predates activation
		let seed = 42;
		const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
		const all = ['signup', 'visit', 'login', 'geo_visit', 'open_email', 'geo_arriving'];
		const injected: Injected[] = [];
		const emitted: string[] = [];
		let maxSeen = 0;
		for (let round = 0; round < 40; round++) {
			const now = ctx.sb.clock.now();
			const count = Math.floor(random() * 30);
			injected.push(
				...inject(
					ctx,
					Array.from({ length: count }, () => ({
						type: all[Math.floor(random() * all.length)],
						// Some share timestamps, some show up to 10 minutes late.
						createdAt: new Date(now - Math.floor(random() * 3) * 1000).toISOString(),
						visibleAfterMs: random() < 0.2 ? Math.floor(random() * 10 * MINUTE) : 0,
					})),
				),
			);
			if (random() < 0.15) ctx.sb.addFault({ path: '/events$', status: 500, times: 6, retryAfter: 0 });
			try {
				emitted.push(...(await poll(ctx, workflow)));
			} catch {
				ctx.sb.clearFaults(); // the poll failed; n8n polls again next minute
			}
			maxSeen = Math.max(maxSeen, rememberedIds(workflow));
			ctx.sb.clock.advance(MINUTE);
		}
		ctx.sb.clearFaults();
		ctx.sb.clock.advance(15 * MINUTE);
		emitted.push(...(await poll(ctx, workflow)));
		expect(sorted(emitted)).toEqual(sorted(ids(injected, kinds)));
		expect(new Set(emitted).size).toBe(emitted.length);
		// Remembered ids cover about ten minutes of events, not the whole history.
		expect(maxSeen).toBeLessThan(ids(injected, kinds).length / 2);
	});
});

describe('Cloud4Wi Trigger: contact profiles that cannot be read', () => {
	let ctx: TestContext;
	afterEach(async () => await ctx.sb.close());

	const HANG = 10 * 60_000; // far longer than any budget here: the sandbox's close() cuts it short
	const withProfiles = () =>
		buildWorkflow(triggerWorkflow({ events: ['signup', 'visit'], options: { includeContact: true } }));
	const byId = (items: INodeExecutionData[] | null) =>
		Object.fromEntries((items ?? []).map((i) => [String((i.json.event as IDataObject).id), i.json]));
	const lookups = () => ctx.sb.requests.filter((r) => r.path.startsWith('/v2/customers/')).map((r) => r.path);

	test('a contact deleted since its event: the event is emitted once, with no profile and the reason', async () => {
		ctx = await startCloud4Wi();
		const [alice, gone] = ctx.sb.data.contacts;
		const workflow = withProfiles();
		await pollOnce(workflow, ctx.store, 'Trigger');
		ctx.sb.clock.advance(1000); // events below come after activation, whatever the sandbox clock's lag
		ctx.sb.data.contacts.delete(gone!.cid);
		const [a, b] = inject(ctx, [
			{ type: 'signup', customerId: alice!.cid },
			{ type: 'visit', customerId: gone!.cid },
		]);
		ctx.sb.clearRequests();
		const { emitted, run } = await pollOnce(workflow, ctx.store, 'Trigger');
		expect(run?.error).toBeUndefined();
		const items = byId(emitted);
		expect(Object.keys(items).sort()).toEqual(sorted([a.id, b.id]));
		expect(items[a.id].contact).toMatchObject({ id: alice!.cid, email: alice!.email });
		expect(items[a.id]).not.toHaveProperty('contactError');
		expect(items[b.id]).toMatchObject({ contact: null, contactError: 'The contact no longer exists in Cloud4Wi' });
		expect(sorted(lookups())).toEqual(sorted([`/v2/customers/${alice!.cid}`, `/v2/customers/${gone!.cid}`]));
		ctx.sb.clearRequests();
		expect(await poll(ctx, workflow)).toEqual([]);
		expect(lookups()).toEqual([]);
	});

	test('a lookup that keeps failing with 5xx: the event is emitted once with the reason, and the next poll goes on', async () => {
		ctx = await startCloud4Wi();
		const [alice, bob] = ctx.sb.data.contacts;
		const workflow = withProfiles();
		await pollOnce(workflow, ctx.store, 'Trigger');
		ctx.sb.clock.advance(1000); // events below come after activation, whatever the sandbox clock's lag
		const [a, b] = inject(ctx, [
			{ type: 'signup', customerId: alice!.cid },
			{ type: 'visit', customerId: bob!.cid },
		]);
		ctx.sb.addFault({ method: 'GET', path: `^/v2/customers/${bob!.cid}$`, status: 500, retryAfter: 0, times: 100 });
		ctx.sb.clearRequests();
		const first = byId((await pollOnce(workflow, ctx.store, 'Trigger')).emitted);
		expect(Object.keys(first).sort()).toEqual(sorted([a.id, b.id]));
		expect(first[a.id].contact).toMatchObject({ id: alice!.cid });
		expect(first[b.id]).toMatchObject({
			contact: null,
			contactError: 'The contact profile could not be read: Internal Server Error',
		});
		// A read: tried five times, then given up for this event only.
		expect(lookups().filter((p) => p.endsWith(bob!.cid))).toHaveLength(5);
		// Still failing: a new event of the same contact goes out too, and the first ones are not repeated.
		const [c] = inject(ctx, [{ type: 'visit', customerId: bob!.cid }]);
		const second = byId((await pollOnce(workflow, ctx.store, 'Trigger')).emitted);
		expect(Object.keys(second)).toEqual([c.id]);
		expect(second[c.id].contactError).toBe('The contact profile could not be read: Internal Server Error');
		expect(await poll(ctx, workflow)).toEqual([]);
	});

	test('a lookup that never answers: the poll ends inside its budget, emits every event once, and later polls make progress', async () => {
		ctx = await startCloud4Wi();
		const [alice, bob] = ctx.sb.data.contacts;
		const workflow = withProfiles();
		await pollOnce(workflow, ctx.store, 'Trigger');
		ctx.sb.clock.advance(1000); // events below come after activation, whatever the sandbox clock's lag
		const first = inject(ctx, [
			{ type: 'signup', customerId: alice!.cid },
			{ type: 'visit', customerId: bob!.cid },
			{ type: 'signup', customerId: bob!.cid },
		]);
		ctx.sb.addFault({ method: 'GET', path: `^/v2/customers/${bob!.cid}$`, delayMs: HANG, times: 100 });
		const ranOut =
			'The contact profile could not be read: Cloud4Wi did not answer before the time for this poll ran out';

		let started = Date.now();
		const one = await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 3_000);
		expect(Date.now() - started).toBeLessThan(3_000);
		const items = byId(one.emitted);
		expect(Object.keys(items).sort()).toEqual(sorted(ids(first)));
		expect(items[first[0].id].contact).toMatchObject({ id: alice!.cid });
		expect(items[first[1].id]).toMatchObject({ contact: null, contactError: ranOut });
		expect(items[first[2].id]).toMatchObject({ contact: null, contactError: ranOut });
		expect(one.run?.output('Done')).toHaveLength(3);

		// The contact still hangs: the next poll delivers only what is new, each once, and no later poll repeats anything.
		const second = inject(ctx, [
			{ type: 'visit', customerId: bob!.cid },
			{ type: 'visit', customerId: alice!.cid },
		]);
		started = Date.now();
		const two = byId((await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 3_000)).emitted);
		expect(Date.now() - started).toBeLessThan(3_000);
		expect(Object.keys(two).sort()).toEqual(sorted(ids(second)));
		expect(two[second[0].id].contactError).toBe(ranOut);
		expect(two[second[1].id].contact).toMatchObject({ id: alice!.cid });
		expect((await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 3_000)).emitted).toBeNull();
	}, 30_000);
});

describe('Cloud4Wi Trigger: event ids that name members of every JavaScript object', () => {
	let ctx: TestContext;
	afterEach(async () => await ctx.sb.close());

	const NAMES = [
		'constructor',
		'toString',
		'__proto__',
		'hasOwnProperty',
		'valueOf',
		'isPrototypeOf',
		'__defineGetter__',
	];

	test('each is emitted once, remembered, and still remembered after the state is saved and reloaded', async () => {
		ctx = await startCloud4Wi();
		const json = triggerWorkflow({ events: ['signup'] });
		let workflow = buildWorkflow(json);
		await poll(ctx, workflow);
		const at = ctx.sb.clock.now() + 1000;
		const injected = inject(ctx, [
			...NAMES.map((id, i) => ({ type: 'signup', createdAt: at + i, event: { id } })),
			{ type: 'signup', createdAt: at + NAMES.length },
		]);
		expect(injected.map((e) => e.id).slice(0, NAMES.length)).toEqual(NAMES);
		ctx.sb.clock.advance(5000);
		expect(await poll(ctx, workflow)).toEqual(ids(injected));
		expect(rememberedIds(workflow)).toBe(injected.length);
		expect(await poll(ctx, workflow)).toEqual([]);

		// Saved as n8n saves static data (JSON) and reloaded: the ids are still known, nothing comes again.
		const saved = JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject;
		const seen = ((saved['node:Trigger'] as IDataObject).state as IDataObject).seen as IDataObject;
		expect(Object.keys(seen).sort()).toEqual(sorted(ids(injected)));
		workflow = buildWorkflow(json, saved);
		ctx.sb.clock.advance(MINUTE);
		const later = inject(ctx, [{ type: 'signup', event: { id: 'toLocaleString' } }]);
		expect(await poll(ctx, workflow)).toEqual(ids(later));
		expect(await poll(ctx, workflow)).toEqual([]);
	});

	test('state saved by the earlier version (ids as keys of a plain object) is read as it was', async () => {
		ctx = await startCloud4Wi();
		const t0 = ctx.sb.clock.now();
		const [done, fresh] = inject(ctx, [
			{ type: 'signup', createdAt: t0 - 2000 },
			{ type: 'signup', createdAt: t0 - 1000 },
		]);
		const since = t0 - 5 * MINUTE;
		const staticData = { 'node:Trigger': { state: { since, seen: { [done.id]: t0 - 2000 } } } };
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'] }), JSON.parse(JSON.stringify(staticData)));
		expect(await poll(ctx, workflow)).toEqual([fresh.id]);
		const state = (workflow.staticData['node:Trigger'] as IDataObject).state as IDataObject;
		expect(state.seen).toEqual({ [done.id]: t0 - 2000, [fresh.id]: t0 - 1000 });
		expect(await poll(ctx, workflow)).toEqual([]);
	});
});

describe('Cloud4Wi Trigger: event times past the service clock', () => {
	let ctx: TestContext;
	afterEach(async () => await ctx.sb.close());

	const DAY = 24 * 60 * MINUTE;
	const LATE = 10 * MINUTE; // the trigger's look-back window
	const HANG = 10 * MINUTE; // far longer than any budget here: the sandbox's close() cuts it short

	/** The event-list requests since the last clearRequests(): their dateStart and when they arrived, in sandbox ms. */
	const eventRequests = () =>
		ctx.sb.requests
			.filter((r) => r.path.endsWith('/events'))
			.map((r) => ({ dateStart: Date.parse(r.query.dateStart), at: r.at }));
	const stateOf = (workflow: Workflow) =>
		(workflow.staticData['node:Trigger'] as IDataObject).state as { since: number; seen: Record<string, number> };

	test('an event dated a day ahead is emitted once and the window stays at the service clock: the signups after it all arrive', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'] }));
		await poll(ctx, workflow);
		ctx.sb.clock.advance(1000);
		const [odd] = ctx.sb.injectEvents([{ type: 'signup' }]);
		odd.when.createdAt = new Date(ctx.sb.clock.now() + DAY).toISOString(); // listed now, dated tomorrow
		expect(await poll(ctx, workflow)).toEqual([odd.event.id]);
		const later: Injected[] = [];
		for (let i = 0; i < 3; i++) {
			ctx.sb.clock.advance(MINUTE);
			later.push(...inject(ctx, [{ type: 'signup' }]));
		}
		ctx.sb.clock.advance(MINUTE);
		ctx.sb.clearRequests();
		expect(sorted(await poll(ctx, workflow))).toEqual(sorted(ids(later)));
		expect(await poll(ctx, workflow)).toEqual([]);
		const asked = eventRequests();
		expect(asked).toHaveLength(2);
		// Both polls still ask from before the ordinary signups, not from a day ahead.
		const firstSignup = Date.parse(String(ctx.sb.data.events.find((e) => e.event.id === later[0].id)!.when.createdAt));
		for (const { dateStart, at } of asked) {
			expect(dateStart).toBeLessThanOrEqual(firstSignup);
			expect(dateStart).toBeLessThanOrEqual(at);
		}
		// The odd id stays remembered until the window passes its date.
		expect(stateOf(workflow).seen).toHaveProperty(odd.event.id);
	});

	test('a future-dated event among ordinary ones over 40 polls: each matching event once, the window never ahead of the service', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup', 'visit'] }));
		await poll(ctx, workflow);
		const activation = stateOf(workflow).since;
		ctx.sb.clock.advance(1000);
		const injected = inject(ctx, [{ type: 'signup' }, { type: 'visit' }]);
		const [odd] = ctx.sb.injectEvents([{ type: 'visit' }]);
		const oddAt = ctx.sb.clock.now() + 20 * MINUTE;
		odd.when.createdAt = new Date(oddAt).toISOString();
		injected.push({ id: odd.event.id, type: 'visit' });
		ctx.sb.clearRequests();
		const emitted: string[] = [];
		for (let minute = 0; minute < 40; minute++) {
			if (minute % 3 === 0) injected.push(...inject(ctx, [{ type: 'signup' }, { type: 'login' }, { type: 'visit' }]));
			emitted.push(...(await poll(ctx, workflow)));
			const { since, seen } = stateOf(workflow);
			if (since <= oddAt) expect(seen).toHaveProperty(odd.event.id);
			ctx.sb.clock.advance(MINUTE);
		}
		expect(sorted(emitted)).toEqual(sorted(ids(injected, ['signup', 'visit'])));
		expect(new Set(emitted).size).toBe(emitted.length);
		// Each poll asks from the service's time of the poll before, less the look-back (or from activation): never later.
		for (const { dateStart, at } of eventRequests()) {
			expect(dateStart).toBeLessThanOrEqual(Math.max(activation, at - LATE - MINUTE + 1000));
		}
		// Past its date the window moved on and the id was let go.
		expect(stateOf(workflow).since).toBeGreaterThan(oddAt);
		expect(stateOf(workflow).seen).not.toHaveProperty(odd.event.id);
	});

	test('without a readable `generated`, event times past n8n’s own clock do not move the window either', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'] }));
		await poll(ctx, workflow);
		ctx.sb.clock.advance(1000);
		const [odd] = ctx.sb.injectEvents([{ type: 'signup' }]);
		odd.when.createdAt = new Date(ctx.sb.clock.now() + DAY).toISOString();
		for (const generated of [undefined, 'soon']) {
			ctx.sb.addFault({
				method: 'GET',
				path: '/events$',
				status: 200,
				body: { status: 'ok', generated, count: 1, events: [odd] },
			});
			// Once emitted, then remembered.
			expect(await poll(ctx, workflow)).toEqual(generated ? [] : [odd.event.id]);
		}
		const later: Injected[] = [];
		for (let i = 0; i < 3; i++) {
			ctx.sb.clock.advance(MINUTE);
			later.push(...inject(ctx, [{ type: 'signup' }]));
		}
		ctx.sb.clearRequests();
		expect(sorted(await poll(ctx, workflow))).toEqual(sorted(ids(later)));
		expect(await poll(ctx, workflow)).toEqual([]);
		for (const { dateStart } of eventRequests()) expect(dateStart).toBeLessThanOrEqual(Date.now());
	});

	test('a read cut short after a page with a future-dated and a timeless event resumes from the last time it could trust', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'] }));
		await poll(ctx, workflow);
		ctx.sb.clock.advance(60 * MINUTE);
		const now = ctx.sb.clock.now();
		const burst = ctx.sb.injectEvents(
			Array.from({ length: 12_000 }, (_, i) => ({ type: 'signup' as const, createdAt: now - 40 * MINUTE + i * 10 })),
		);
		const odd = { ...structuredClone(burst[0]), event: { ...burst[0].event, id: 'ahead1l' } };
		odd.when.createdAt = new Date(now + DAY).toISOString();
		const timeless = { type: 'signup', id: 'timeless1l', signup: { source: 'api' } };
		// A full first page (its last record dated a day ahead, a timeless one inside); the next page never comes in time.
		const firstPage = [...burst.slice(0, 5_000), timeless, ...burst.slice(5_000, 9_998), odd];
		ctx.sb.addFault({
			method: 'GET',
			path: '/events$',
			status: 200,
			body: { status: 'ok', generated: new Date(now).toISOString(), count: 12_002, scrollId: 's-1', events: firstPage },
		});
		ctx.sb.addFault({ method: 'GET', path: '/events$', delayMs: HANG, times: 10 });
		const first = await pollOnce(workflow, ctx.store, 'Trigger', 'trigger', 3_000);
		expect((first.emitted ?? []).map((i) => String(((i.json.event ?? i.json) as IDataObject).id))).toEqual([
			...burst.slice(0, 9_998).map((e) => e.event.id),
			'timeless1l',
			'ahead1l',
		]);
		ctx.sb.clearFaults();
		ctx.sb.clearRequests();
		// The next poll goes on from the last event read that the clock vouches for (less the look-back): the rest arrives.
		expect(await poll(ctx, workflow)).toEqual(burst.slice(9_998).map((e) => e.event.id));
		expect(eventRequests()[0].dateStart).toBe(Date.parse(burst[9_997].when.createdAt) - LATE);
		expect(await poll(ctx, workflow)).toEqual([]);
	}, 30_000);
});

describe('Cloud4Wi Trigger: events in the schema form (no `when`, no `where`)', () => {
	let ctx: TestContext;
	afterEach(async () => await ctx.sb.close());

	/** Answers every events request `times` times with these events, as Cloud4Wi would in the spec's schema form. */
	function answer(events: object[], times: number, at = ctx.sb.clock.now()) {
		ctx.sb.addFault({
			method: 'GET',
			path: '/events$',
			status: 200,
			times,
			body: { status: 'ok', generated: new Date(at).toISOString(), count: events.length, events },
		});
	}

	test('signups, e-mails and visits are each emitted once over several polls, only the chosen kinds', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup', 'visit'] }));
		await poll(ctx, workflow);
		ctx.sb.clock.advance(1000);
		const now = ctx.sb.clock.now();
		const email = {
			campaignId: 'c1',
			communicationId: 'm1',
			channel: 'email',
			campaignName: 'Welcome',
			email: 'a@b.it',
		};
		const listed = [
			{ type: 'signup', id: 's1l', signup: { source: 'api' } },
			{ type: 'send_email', id: 'm1l', email },
			// A two-hour visit, listed when the guest left: its start is long before the window.
			{
				type: 'visit',
				id: 'v1l',
				visit: {
					startAt: new Date(now - 2 * 60 * MINUTE).toISOString(),
					startAtLocal: '',
					timezone: 'UTC',
					duration: 7200,
				},
			},
			{ type: 'signup', id: 's2l', signup: { source: 'kiosk' } },
		];
		answer(listed, 3);
		ctx.sb.clearRequests();
		const { emitted } = await pollOnce(workflow, ctx.store, 'Trigger');
		// As sent; all first seen now, so ordered by id.
		expect(emitted?.map((i) => i.json)).toEqual([listed[0], listed[3], listed[2]]);
		for (let i = 0; i < 2; i++) {
			ctx.sb.clock.advance(MINUTE);
			expect(await poll(ctx, workflow)).toEqual([]); // listed again: not emitted again
		}
		expect(await poll(ctx, workflow)).toEqual([]); // the sandbox's own answer from here on
		const asked = ctx.sb.requests.filter((r) => r.path.endsWith('/events'));
		expect(asked).toHaveLength(4);
		for (const r of asked) {
			expect(r.query.events).toBe('signup,visit');
			expect(Date.parse(r.query.dateStart)).toBeLessThanOrEqual(now); // the window did not move past what was listed
		}
	});

	test('both shapes in one answer: each event once, then the live ones listed again are not repeated', async () => {
		ctx = await startCloud4Wi();
		const workflow = buildWorkflow(triggerWorkflow({ events: [] }));
		await poll(ctx, workflow);
		ctx.sb.clock.advance(1000);
		const [a, b] = ctx.sb.injectEvents([{ type: 'login' }, { type: 'visit' }]);
		const schemaSignup = { type: 'signup', id: 'sch1l', signup: { source: 'api' } };
		const schemaPromo = { type: 'promo', id: 'sch2l', promo: { type: 'cta' } };
		ctx.sb.clock.advance(1000);
		answer([a, schemaSignup, b, schemaPromo], 2);
		expect(await poll(ctx, workflow)).toEqual([a.event.id, b.event.id, 'sch1l', 'sch2l']);
		expect(await poll(ctx, workflow)).toEqual([]);
		// The sandbox lists a and b again, in their live form, with a new one.
		const c = inject(ctx, [{ type: 'signup' }]);
		expect(await poll(ctx, workflow)).toEqual(ids(c));
		expect(await poll(ctx, workflow)).toEqual([]);
	});

	test('with locations chosen, schema-form events (no location) are left out and live ones at those locations go out', async () => {
		ctx = await startCloud4Wi();
		const [here, there] = ctx.sb.data.locations;
		const workflow = buildWorkflow(triggerWorkflow({ events: ['signup'], options: { locationIds: [here.id] } }));
		await poll(ctx, workflow);
		ctx.sb.clock.advance(1000);
		const [atHere, atThere] = ctx.sb.injectEvents([
			{ type: 'signup', locationId: here.id },
			{ type: 'signup', locationId: there.id },
		]);
		answer([atHere, atThere, { type: 'signup', id: 'sch1l', signup: { source: 'api' } }], 1);
		expect(await poll(ctx, workflow)).toEqual([atHere.event.id]);
		expect(await poll(ctx, workflow)).toEqual([]);
	});
});

/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
test("an event's id in either shape, a number as text (the trigger remembers ids as text); none without one", () => {
	expect(eventId({ event: { type: 'signup', id: 'e1l' } })).toBe('e1l');
	expect(eventId({ type: 'signup', id: 'e2g' })).toBe('e2g');
	expect(eventId({ event: { type: 'signup', id: 42 } })).toBe('42');
	expect(eventId({ event: { type: 'signup' } })).toBeUndefined();
	expect(eventId({ event: { type: 'signup', id: { nested: 1 } } })).toBeUndefined();
});
