/**
 * No entry can become two: through every field whose entries are joined into one comma-separated value, an entry that
 * holds a comma (as typed, %-encoded, or as a look-alike that NFKC maps to ",") fails its item (or the poll) with an
 * error naming the field, and the sandbox sees nothing; whether the entry comes in a typed list, in a list mapped from
 * the item beside a good entry, or as a piece of comma-separated text. Two entries per way: the whole catalogue runs
 * against the check itself in test/unit/list-entries.test.ts.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { LOCATION_REQUIRED, runAction, startCloud4Wi, triggerWorkflow } from '../harness/cloud4wi';
import { buildWorkflow, lastThrownError, pollOnce } from '../harness/engine';

/** A comma as typed and one %-encoded: a comma-splitting service (or one that decodes first) reads either as two. */
const HOSTILE_ENTRIES = ['s1,s2', 'a%2Cb'];
/** In text, a literal comma only splits it: the hidden ones, %-encoded and a fullwidth look-alike. */
const HIDDEN_COMMAS = ['a%2Cb', 'a\uff0cb'];

const rl = (value: string) => ({ __rl: true, mode: 'id', value });

/** Every field whose entries are joined with ",": operation, where the field sits, its label, and other fields. */
const FIELDS: Array<[string, string, string, string, string, INodeParameters]> = [
	['contact', 'getAll', 'filters', 'segmentCids', 'Filters > Segment', {}],
	['contact', 'getAll', 'filters', 'locationCids', 'Filters > Location', {}],
	['location', 'getAll', 'filters', 'tags', 'Filters > Tags', {}],
	['event', 'getAll', 'filters', 'events', 'Filters > Event Kinds', {}],
	['event', 'getAllForContact', 'filters', 'events', 'Filters > Event Kinds', { contactId: 'c-1' }],
	// Tags are sent as a JSON list, but a tag with a comma could never be found again by the Get Many tag filter.
	['location', 'create', 'additionalFields', 'tags', 'Tags', LOCATION_REQUIRED],
	['location', 'update', 'updateFields', 'tags', 'Update Fields > Tags', { locationId: rl('l-1') }],
];

let ctx: TestContext;
beforeAll(async () => {
	ctx = await startCloud4Wi({ contacts: 5 });
});
afterAll(async () => {
	await ctx.sb.close();
});
beforeEach(() => ctx.sb.clearRequests());

/** The item failed with a NodeOperationError naming `label`, and nothing at all reached the service. */
function refused(error: unknown, label: string): void {
	expect(error).toBeInstanceOf(NodeOperationError);
	expect((error as Error).message.startsWith(`${label}: `)).toBe(true);
	expect((error as Error).message).toMatch(/contains a comma/);
	expect(ctx.sb.requests).toEqual([]);
}

describe.each(FIELDS)('%s %s, %s > %s', (resource, operation, group, field, label, rest) => {
	const params = (value: unknown): INodeParameters => ({
		resource,
		operation,
		returnAll: true,
		...rest,
		[group]: { [field]: value as string[] },
	});

	test.each(HOSTILE_ENTRIES)('a list entry %j: refused, nothing sent', async (entry) => {
		const result = await runAction(ctx, params([entry]));
		expect(result.error).toBeDefined();
		refused(lastThrownError(), label);
	});

	test.each(HOSTILE_ENTRIES)('beside a good entry, mapped from the item %j: refused, nothing sent', async (entry) => {
		await runAction(ctx, params('={{ $json.list }}'), [{ list: ['signup', entry] }]);
		refused(lastThrownError(), label);
	});

	test.each(HIDDEN_COMMAS)('a piece of comma-separated text %j: refused, nothing sent', async (entry) => {
		await runAction(ctx, params('={{ $json.list }}'), [{ list: `signup,${entry}` }]);
		refused(lastThrownError(), label);
	});
});

test('with Continue On Fail, an item whose list entry holds a comma is an error item; the others run', async () => {
	const items: IDataObject[] = [{ tags: ['airport'] }, { tags: ['airport,food'] }, { tags: 'airport, food' }];
	const result = await runAction(
		ctx,
		{ resource: 'location', operation: 'getAll', returnAll: true, filters: { tags: '={{ $json.tags }}' } },
		items,
		{ continueOnFail: true },
	);
	const errors = result.items.filter((i) => i.json.error);
	expect(errors.map((i) => i.pairedItem)).toEqual([{ item: 1 }]);
	expect(errors[0].json.error).toMatch(/^Filters > Tags: "airport,food" contains a comma/);
	expect(ctx.sb.requests.filter((r) => r.path.endsWith('/locations')).map((r) => r.query)).toEqual([
		{ tags: 'airport' },
		{ tags: 'airport,food' },
	]);
});

describe('fine entries are joined as the service expects', () => {
	const sentQuery = (name: string) =>
		ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login')).map((r) => (r.query as IDataObject)[name]);

	test('segments and locations: a list, or text split at its commas', async () => {
		for (const segmentCids of [['s-1', 's-2'], ' s-1, s-2 ']) {
			ctx.sb.clearRequests();
			await runAction(ctx, { resource: 'contact', operation: 'getAll', limit: 1, filters: { segmentCids } });
			expect(sentQuery('segmentCids')).toEqual(['s-1,s-2']);
		}
	});

	test('tags may hold "&", "%" and spaces, which the query encodes', async () => {
		await runAction(ctx, {
			resource: 'location',
			operation: 'getAll',
			returnAll: true,
			filters: { tags: ['c&d', '50% off', 'late night'] },
		});
		expect(sentQuery('tags')).toEqual(['c&d,50% off,late night']);
	});

	test('event kinds as text from an expression are split, not ignored', async () => {
		await runAction(ctx, { resource: 'event', operation: 'getAll', limit: 1, filters: { events: 'signup, visit' } });
		expect(sentQuery('events')).toEqual(['signup,visit']);
	});
});

describe('the trigger', () => {
	const trigger = (parameters: INodeParameters) => buildWorkflow(triggerWorkflow(parameters));
	const lists: Array<[string, string, (value: unknown) => INodeParameters]> = [
		['Events', 'events', (value) => ({ events: value as string[] })],
		[
			'Options > Location Names or IDs',
			'location',
			(value) => ({ events: ['signup'], options: { locationIds: value as string[] } }),
		],
	];

	describe.each(lists)('%s', (label, _, parameters) => {
		test.each(HOSTILE_ENTRIES)('a list entry %j: the poll fails naming the field, nothing sent', async (entry) => {
			for (const mode of ['trigger', 'manual'] as const) {
				const poll = pollOnce(trigger(parameters(['signup', entry])), ctx.store, 'Trigger', mode);
				await expect(poll).rejects.toThrow(new RegExp(`^${label}: .* contains a comma`));
				await expect(poll).rejects.toBeInstanceOf(NodeOperationError);
				expect(ctx.sb.requests).toEqual([]);
			}
		});
	});

	test('event kinds as text from an expression are split (they failed the poll before)', async () => {
		await pollOnce(trigger({ events: 'signup,visit' }), ctx.store, 'Trigger', 'manual').catch(
			() => undefined, // no matching event in the sandbox is fine: the request is what counts
		);
		const events = ctx.sb.requests.filter((r) => r.path.endsWith('/events')).map((r) => r.query.events);
		expect(events.length).toBeGreaterThan(0);
		expect(new Set(events)).toEqual(new Set(['signup,visit']));
	});
});
