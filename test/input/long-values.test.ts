import type { INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { actionWorkflow, runAction, startCloud4Wi, triggerWorkflow } from '../harness/cloud4wi';
import { buildWorkflow, lastThrownError, pollOnce, runWorkflow } from '../harness/engine';
import { ORG, standIn } from '../harness/stand-in';

const LONG = 'a'.repeat(100_000);
const MAPPED = '={{ $json.v }}';
const rl = (value: string) => ({ __rl: true, mode: 'id', value });

let ctx: TestContext;
beforeAll(async () => {
	ctx = await startCloud4Wi({ contacts: 5 });
});
afterAll(async () => await ctx.sb.close());
beforeEach(() => ctx.sb.clearRequests());

const ID_FIELDS: Array<[string, string, INodeParameters]> = [
	['Contact Get', 'Contact ID', { resource: 'contact', operation: 'get', contactId: MAPPED }],
	['Location Get', 'Location', { resource: 'location', operation: 'get', locationId: rl(MAPPED) }],
	['Hotspot Delete', 'Hotspot', { resource: 'hotspot', operation: 'delete', hotspotId: rl(MAPPED) }],
	[
		'Hotspot Get by Identifier',
		'Hotspot Identifier',
		{ resource: 'hotspot', operation: 'getByIdentifier', hotspotIdentifier: MAPPED },
	],
	['Segment Get Many', 'Organization ID', { resource: 'segment', operation: 'getAll', organizationId: MAPPED }],
	[
		'Contact Get Many, a segment',
		'Filters > Segment',
		{ resource: 'contact', operation: 'getAll', limit: 1, filters: { segmentCids: MAPPED } },
	],
];

describe.each(ID_FIELDS)('%s', (_, label, params) => {
	test('a 100 KB ID fails the item naming the field, nothing sent', async () => {
		const result = await runAction(ctx, params, [{ v: LONG }]);
		expect(result.error).toBeDefined();
		const error = lastThrownError();
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe(`${label}: is 100,000 characters long, more than the 1,000 an ID may have`);
		expect(ctx.sb.requests).toEqual([]);
	});

	test('an ID of 1,000 characters is sent', async () => {
		await runAction(ctx, params, [{ v: 'b'.repeat(1000) }]);
		expect(ctx.sb.requests.some((r) => r.path.includes('b'.repeat(1000)) || r.query.segmentCids)).toBe(true);
	});
});

test("the credential's default organization of 100 KB: refused by name, nothing sent", async () => {
	const long = await startCloud4Wi({ contacts: 1 }, { organizationId: LONG });
	try {
		const result = await runAction(long, { resource: 'segment', operation: 'getAll' });
		expect(result.error).toBeDefined();
		expect((lastThrownError() as Error).message).toMatch(/^Organization ID \(the credential’s default\): is 100,000/);
		expect(long.sb.requests).toEqual([]);
	} finally {
		await long.sb.close();
	}
});

test("the trigger's organization of 100 KB: refused by name, nothing sent", async () => {
	const failed = await pollOnce(buildWorkflow(triggerWorkflow({ organizationId: LONG })), ctx.store, 'Trigger').then(
		() => undefined,
		(error: Error) => error,
	);
	expect(failed).toBeInstanceOf(NodeOperationError);
	expect(failed!.message).toMatch(/^Organization ID: is 100,000 characters long/);
	expect(ctx.sb.requests).toEqual([]);
});

test('a 100 KB text in a body field is valid and sent whole', async () => {
	await runAction(
		ctx,
		{
			resource: 'location',
			operation: 'update',
			locationId: rl(ctx.sb.data.locations[0]!.id),
			updateFields: { description: MAPPED },
		},
		[{ v: LONG }],
	);
	const put = ctx.sb.requests.find((r) => r.method === 'PUT');
	expect((put?.body as { description?: string }).description).toBe(LONG);
});

test("a filter too long for the service's address limit (a gateway's HTML 414): said so, sent once", async () => {
	const si = await standIn((r) =>
		r.path === `/v2/customers/organizations/${ORG}` && (r.query.email ?? '').length > 8000
			? { status: 414, raw: '<html><body><h1>414 Request-URI Too Large</h1></body></html>' }
			: undefined,
	);
	try {
		const result = await runWorkflow(
			buildWorkflow(
				actionWorkflow({ resource: 'contact', operation: 'getAll', limit: 1, filters: { email: MAPPED } }, [
					{ v: 'x'.repeat(10_000) },
				]),
			),
			si.store,
		);
		const error = lastThrownError() as NodeApiError;
		expect(result.error).toBeDefined();
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.httpCode).toBe('414');
		expect(error.description).toBe(
			"The request's address was too long for Cloud4Wi: a filter value is too long, or too many IDs are chosen in one filter.",
		);
		expect(si.requests.filter((r) => r.path.startsWith('/v2/'))).toHaveLength(1);
	} finally {
		await si.close();
	}
});
