/** An Update with nothing to change is refused, and a required field emptied by an Update is refused; nothing is sent. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { ACTION_TYPE, expectInputError, node, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { buildWorkflow, runAsTool, lastThrownError } from '../harness/engine';
import { standIn } from '../harness/stand-in';
import type { InRequest, StandIn } from '../harness/stand-in';

/**
 * Location > Update with Update Fields mapped from data that is not there (a misnamed column) or left out by an AI
 * agent: each resolves to undefined and is skipped, and the node sent PUT {} to Cloud4Wi, which changes nothing, and
 * reported the item done. Now the item fails saying so, nothing sent; one field that resolves still goes out alone.
 */
describe('fields that resolve to nothing', () => {
	let ctx: TestContext;
	beforeAll(async () => {
		ctx = await startCloud4Wi({ contacts: 5 });
	});
	afterAll(async () => await ctx.sb.close());
	beforeEach(() => ctx.sb.clearRequests());

	const LABEL = 'Update Fields (every field given resolved to nothing)';
	const update = (updateFields: INodeParameters): INodeParameters => ({
		resource: 'location',
		operation: 'update',
		locationId: ctx.sb.data.locations[0]!.id,
		updateFields,
	});

	test('every field mapped from a missing column: refused, nothing sent', async () => {
		const result = await runAction(
			ctx,
			update({ name: '={{ $json.Name }}', description: '={{ $json.Description }}', tags: '={{ $json.Tags }}' }),
			[{ name: 'Renamed' }],
		);
		expectInputError(ctx, result, LABEL);
	});

	test('an AI agent leaving out every argument: refused, nothing sent', async () => {
		const workflow = buildWorkflow({
			nodes: [node('Tool', ACTION_TYPE, update({ name: "={{ $fromAI('name', 'new name', 'string') }}" }))],
			connections: {},
		});
		const failed = await runAsTool(workflow, ctx.store, 'Tool', {}).then(
			() => undefined,
			(error: Error) => error,
		);
		expect(failed?.message).toMatch(new RegExp(`^${LABEL.replace(/[()]/g, '\\$&')}: is required`));
		expect(ctx.sb.requests).toEqual([]);
	});

	test('one field that resolves beside one that does not: only it is sent', async () => {
		await runAction(ctx, update({ name: '={{ $json.name }}', description: '={{ $json.Description }}' }), [
			{ name: 'Renamed' },
		]);
		expect(ctx.sb.requests.filter((r) => r.method === 'PUT').map((r) => r.body)).toEqual([{ name: 'Renamed' }]);
	});

	test('an empty Update is refused before any request', async () => {
		const target = ctx.sb.data.locations[3];
		expectInputError(
			ctx,
			await runAction(ctx, { resource: 'location', operation: 'update', locationId: target.id, updateFields: {} }),
			'Update Fields (add at least one field to change)',
		);
	});

	describe('Hotspot > Update', () => {
		const hotspotUpdate = (extra: INodeParameters): INodeParameters => ({
			resource: 'hotspot',
			operation: 'update',
			hotspotId: { __rl: true, mode: 'id', value: ctx.sb.data.hotspots[0]!.id },
			...extra,
		});

		test('every field mapped from a missing column and no Location: refused, nothing sent (not a read, not a PUT)', async () => {
			const result = await runAction(ctx, hotspotUpdate({ updateFields: { name: '={{ $json.Name }}' } }), [{}]);
			expectInputError(ctx, result, LABEL);
		});

		test('no field and no Location: refused, nothing sent', async () => {
			const result = await runAction(ctx, hotspotUpdate({ updateFields: {} }));
			expectInputError(ctx, result, 'Update Fields (add a field to change, or a Location)');
		});

		test('a Location alone is a change: sent', async () => {
			const venueId = ctx.sb.data.locations[1]!.id;
			await runAction(ctx, hotspotUpdate({ locationId: { __rl: true, mode: 'id', value: venueId }, updateFields: {} }));
			expect(ctx.sb.requests.filter((r) => r.method === 'PUT').map((r) => (r.body as IDataObject).locationId)).toEqual([
				venueId,
			]);
		});
	});
});

/**
 * Spec, POST /v1/organizations/{cid}/locations: "name | string | yes", "address, city, state, zip | string | yes";
 * POST /v3/hotspots: "name | string | required". An Update may leave these out, but a location or hotspot has them:
 * an Update Field added and left empty (or mapped from an empty value) must fail the item naming the field, not
 * send `""` and blank the record's name or address. The node used to send `name: ""` (location and hotspot) and
 * `address: ""`, `city: ""`... (location).
 */
describe('required fields left empty', () => {
	let si: StandIn;
	/** Answers every request but the login (the stand-in's own), hotspot reads with their location. */
	const answerWrites = (r: InRequest) =>
		r.path.startsWith('/v1/sts/')
			? undefined
			: { body: { generated: 'g', status: 'ok', hotspot: { id: 'h1', venueId: 'l1' } } };
	afterEach(async () => await si.close());

	const location = (field: string, value: string): INodeParameters => ({
		resource: 'location',
		operation: 'update',
		locationId: 'l1',
		updateFields: { [field]: value },
	});
	const hotspot = (field: string, value: string): INodeParameters => ({
		resource: 'hotspot',
		operation: 'update',
		hotspotId: 'h1',
		locationId: { __rl: true, mode: 'id', value: 'l1' },
		updateFields: { [field]: value },
	});

	const cases: Array<[string, INodeParameters, string]> = [
		['location name', location('name', ''), 'Update Fields > Name'],
		['location name, spaces only', location('name', '  '), 'Update Fields > Name'],
		['location address', location('address', ''), 'Update Fields > Address'],
		['location city', location('city', ''), 'Update Fields > City'],
		['location state', location('state', ''), 'Update Fields > State'],
		['location ZIP code', location('zip', ''), 'Update Fields > ZIP Code'],
		['hotspot name', hotspot('name', ''), 'Update Fields > Name'],
		['hotspot city', hotspot('city', ''), 'Update Fields > City'],
	];

	test.each(cases)('Update with an empty %s fails the item naming it, with nothing sent', async (_, params, field) => {
		si = await standIn(answerWrites);
		const result = await runAction(si, params);
		expect(result.error).toBeDefined();
		expect(lastThrownError()).toBeInstanceOf(NodeOperationError);
		expect((lastThrownError() as Error).message).toBe(`${field}: is required`);
		expect(si.requests.filter((r) => r.method === 'PUT')).toEqual([]);
	});

	test('an Update Field that may be cleared still goes as empty: Description', async () => {
		si = await standIn(answerWrites);
		const result = await runAction(si, location('description', ''));
		expect(result.error).toBeUndefined();
		expect(si.requests.find((r) => r.method === 'PUT')?.body).toEqual({ description: '' });
	});
});
