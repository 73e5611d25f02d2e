/**
 * Location > Update with Update Fields mapped from data that is not there (a misnamed column) or left out by an AI
 * agent: each resolves to undefined and is skipped, and the node sent PUT {} to Cloud4Wi, which changes nothing, and
 * reported the item done. Now the item fails saying so, nothing sent; one field that resolves still goes out alone.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { ACTION_TYPE, expectInputError, node, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { buildWorkflow, runAsTool } from '../harness/engine';

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
