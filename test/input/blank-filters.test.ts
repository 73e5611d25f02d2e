/**
 * A filter added to a Get Many and mapped from a blank cell used to be left out, so the search widened: a Get Many by
 * a blank email listed every contact, and an Update after it changed the opt-ins of whoever came first. Every filter
 * that narrows a list (all but the on/off ones, Sort By and Event Kinds, whose empty value means all kinds, as in the
 * trigger) must now fail its item naming the field, with nothing sent. The table is checked against the node's
 * description, so a new filter cannot be missed.
 */
import type { INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { ACTION_TYPE, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { lastThrownError, nodeTypes } from '../harness/engine';

/** Filters whose empty value has a meaning of its own. */
const NOT_NARROWING = new Set(['sortBy', 'events']);
const MAPPED = '={{ $json.v }}';

let ctx: TestContext;
let contactId: string;

/** Every narrowing filter of every Get Many: resource, operation, filter name, from the node's description. */
function narrowingFilters(): Array<[string, string, string]> {
	const rows: Array<[string, string, string]> = [];
	for (const p of (nodeTypes.getByNameAndVersion(ACTION_TYPE) as INodeType).description.properties) {
		if (p.name !== 'filters') continue;
		const { resource = [], operation = [] } = (p.displayOptions?.show ?? {}) as Record<string, string[]>;
		for (const option of p.options as INodeProperties[])
			if (option.type !== 'boolean' && !NOT_NARROWING.has(option.name))
				for (const r of resource) for (const o of operation) rows.push([r, o, option.name]);
	}
	return rows;
}

const params = (resource: string, operation: string, filters: INodeParameters): INodeParameters => ({
	resource,
	operation,
	contactId,
	limit: 5,
	filters,
});

beforeAll(async () => {
	ctx = await startCloud4Wi({ contacts: 12 });
	contactId = ctx.sb.data.contacts[0]!.cid;
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in once, up front
});
afterAll(async () => {
	await ctx.sb.close();
});

test('the table finds the filters of every Get Many that has them', () => {
	const operations = new Set(narrowingFilters().map(([r, o]) => `${r} ${o}`));
	expect([...operations].sort()).toEqual([
		'contact getAll',
		'event getAll',
		'event getAllForContact',
		'hotspot getAll',
		'location getAll',
		'wifiConnection getAll',
	]);
	expect(narrowingFilters().length).toBeGreaterThanOrEqual(25);
});

describe.each(narrowingFilters())('%s %s, Filters > %s', (resource, operation, name) => {
	test.each([[''], ['  '], [null], [[]]])('mapped %j: refused naming the field, nothing sent', async (value) => {
		ctx.sb.clearRequests();
		const result = await runAction(ctx, params(resource, operation, { [name]: MAPPED }), [{ v: value as never }]);
		expect(result.error).toBeDefined();
		expect(result.json).toEqual([]);
		const error = lastThrownError();
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toMatch(/^Filters > [^:]+: is empty$/);
		expect((error as NodeOperationError).description).toBe(
			'Remove this filter to leave it out, or map a value into it.',
		);
		expect(ctx.sb.requests).toEqual([]);
	});
});

test('a search by email with one blank cell among three: that item fails, paired; the others find their contact', async () => {
	const [first, third] = [ctx.sb.data.contacts[1]!, ctx.sb.data.contacts[2]!];
	ctx.sb.clearRequests();
	const result = await runAction(
		ctx,
		{ resource: 'contact', operation: 'getAll', limit: 5, filters: { email: '={{ $json.email }}' } },
		[{ email: first.email }, { email: '' }, { email: third.email }],
		{ continueOnFail: true },
	);
	expect(result.items.map((item) => [item.json.cid ?? item.json.error, item.pairedItem])).toEqual([
		[first.cid, { item: 0 }],
		['Filters > Email: is empty', { item: 1 }],
		[third.cid, { item: 2 }],
	]);
	expect(ctx.sb.requests.map((r) => r.query.email)).toEqual([first.email, third.email]);
});
