import type { TestContext } from '../harness/cloud4wi';
import { ACTION_TYPE, node, startCloud4Wi, TRIGGER_TYPE } from '../harness/cloud4wi';
import { loadOptionsOf } from '../harness/engine';

describe('dropdowns', () => {
	let ctx: TestContext;
	beforeAll(async () => (ctx = await startCloud4Wi({ hotspots: 30 })));
	afterAll(async () => await ctx.sb.close());
	beforeEach(() => ctx.sb.clearRequests());

	const action = (parameters = {}) =>
		node('Cloud4Wi', ACTION_TYPE, { resource: 'contact', operation: 'getAll', ...parameters });

	test('locations, sorted by name, for the credential default organization', async () => {
		const options = (await loadOptionsOf(ctx.store, action(), 'getLocations')) as Array<{
			name: string;
			value: string;
		}>;
		const expected = ctx.sb.data.locations.map((l) => l.name).sort((a, b) => a.localeCompare(b));
		expect(options.map((o) => o.name)).toEqual(expected);
		expect(options.every((o) => ctx.sb.data.locations.some((l) => l.id === o.value))).toBe(true);
		expect(ctx.sb.requests.filter((r) => !r.path.includes('/sts/')).map((r) => r.path)).toEqual([
			`/v1/organizations/${ctx.sb.organizationId}/locations`,
		]);
	});

	test('segments and hotspots; hotspots read in pages', async () => {
		const segments = (await loadOptionsOf(ctx.store, action(), 'getSegments')) as Array<{ value: string }>;
		expect(segments.map((s) => s.value).sort()).toEqual(ctx.sb.data.segments.map((s) => s.id).sort());
		const hotspots = (await loadOptionsOf(ctx.store, action(), 'getHotspots')) as Array<{ value: string }>;
		const live = ctx.sb.data.hotspots.filter((h) => !h.deleted);
		expect(hotspots).toHaveLength(live.length);
		const hotspotCall = ctx.sb.requests.find((r) => r.path.startsWith('/v3/hotspots/organizations/'))!;
		expect(hotspotCall.query).toMatchObject({ limit: '1000', offset: '0' });
	});

	test('the organization typed in the node wins over the credential default', async () => {
		await expect(loadOptionsOf(ctx.store, action({ organizationId: 'other-org' }), 'getLocations')).rejects.toThrow(
			/other-org/,
		);
		expect(ctx.sb.requests.at(-1)?.path).toBe('/v1/organizations/other-org/locations');
	});

	test('an Organization ID typed as an expression: the credential default organization stands in', async () => {
		// No item exists while a dropdown loads, so the expression cannot be resolved.
		const options = (await loadOptionsOf(
			ctx.store,
			action({ organizationId: '={{ $json.organizationId }}' }),
			'getLocations',
		)) as Array<{ value: string }>;
		expect(options.map((o) => o.value).sort()).toEqual(ctx.sb.data.locations.map((l) => l.id).sort());
		expect(ctx.sb.requests.filter((r) => !r.path.includes('/sts/')).map((r) => r.path)).toEqual([
			`/v1/organizations/${ctx.sb.organizationId}/locations`,
		]);
	});

	test('searchable location list filters by name or ID, and the trigger offers locations too', async () => {
		const [first] = ctx.sb.data.locations;
		const fragment = first.name.slice(0, 5).toLowerCase();
		const { results } = (await loadOptionsOf(ctx.store, action(), 'searchLocations', fragment)) as {
			results: Array<{ name: string }>;
		};
		expect(results.length).toBeGreaterThan(0);
		expect(results.every((r) => r.name.toLowerCase().includes(fragment))).toBe(true);
		// By ID too, as pasted from Cloud4Wi's dashboard: exactly the location it names.
		const byId = (await loadOptionsOf(ctx.store, action(), 'searchLocations', first.id)) as {
			results: Array<{ value: string }>;
		};
		expect(byId.results.map((r) => r.value)).toEqual([first.id]);
		const trigger = node('Trigger', TRIGGER_TYPE, { events: [] });
		const options = (await loadOptionsOf(ctx.store, trigger, 'getLocations')) as unknown[];
		expect(options).toHaveLength(ctx.sb.data.locations.length);
	});

	describe('at the bound', () => {
		let big: TestContext;
		beforeAll(async () => (big = await startCloud4Wi({ locations: 10_000 })));
		afterAll(async () => await big.sb.close());

		test('exactly 10,000 locations are listed; one more is too many to list', async () => {
			const options = (await loadOptionsOf(big.store, action(), 'getLocations')) as Array<{ value: string }>;
			expect(options).toHaveLength(10_000);
			expect(options.map((o) => o.value).sort()).toEqual(big.sb.data.locations.map((l) => l.id).sort());
			// The store is live: one more location shows in the next answer.
			big.sb.data.locations.push({ ...big.sb.data.locations[0], id: 'one-more', name: 'One More' });
			await expect(loadOptionsOf(big.store, action(), 'getLocations')).rejects.toThrow(
				'More than 10,000 locations, too many to list: type the location ID instead',
			);
			const path = `/v1/organizations/${big.sb.organizationId}/locations`;
			const calls = big.sb.requests.filter((r) => !r.path.includes('/sts/'));
			expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${path}`, `GET ${path}`]);
		});
	});
});
