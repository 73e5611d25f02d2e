/** Segment > Get Many, run through the engine against the sandbox. */
import type { INodeParameters } from 'n8n-workflow';

import type { TestContext } from '../../harness/cloud4wi';
import { apiCalls, CREDENTIAL_ID, runAction, runFailure, sentCalls, startCloud4Wi } from '../../harness/cloud4wi';

/** Input checks fail with a NodeOperationError, the class n8n keeps with its description. */
const OPERATION_ERROR = /^NodeOperationError$/;

const segments = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'segment',
	operation: 'getAll',
	...extra,
});

describe('segment Get Many', () => {
	let ctx: TestContext;
	let path: string;
	beforeAll(async () => {
		ctx = await startCloud4Wi();
		path = `/v2/segments/organizations/${ctx.sb.organizationId}`;
	});
	afterAll(async () => await ctx.sb.close());
	beforeEach(() => {
		ctx.sb.clearFaults();
		ctx.sb.clearRequests();
	});

	test('Return All lists the segments of the credential organization, records as sent', async () => {
		const result = await runAction(ctx, segments({ returnAll: true }));
		expect(result.error).toBeUndefined();
		expect(sentCalls(ctx)).toEqual([{ method: 'GET', path, query: {}, body: undefined }]);
		expect(result.json).toEqual(ctx.sb.data.segments);
		expect(result.json).toHaveLength(6);
		expect(result.json[0]).toEqual({
			id: expect.any(String),
			name: expect.any(String),
			description: expect.any(String),
			lastRun: expect.any(String),
			created: expect.any(String),
			modified: expect.any(String),
			segmentStatus: expect.any(String),
			audience: expect.any(Number),
		});
		expect(result.items.map((i) => i.pairedItem)).toEqual(result.json.map(() => ({ item: 0 })));
	});

	test('Limit keeps the first segments of the one answer (the endpoint has no size)', async () => {
		const result = await runAction(ctx, segments({ limit: 2 }));
		expect(result.error).toBeUndefined();
		expect(sentCalls(ctx)).toEqual([{ method: 'GET', path, query: {}, body: undefined }]);
		expect(result.json).toEqual(ctx.sb.data.segments.slice(0, 2));
	});

	test('an organization typed in the node (plain string) wins over the credential default', async () => {
		const saved = ctx.store.stored(CREDENTIAL_ID);
		ctx.store.set(CREDENTIAL_ID, 'cloud4WiApi', { ...saved, organizationId: 'org-of-credential' });
		try {
			const result = await runAction(ctx, segments({ organizationId: ctx.sb.organizationId, returnAll: true }));
			expect(result.error).toBeUndefined();
			expect(sentCalls(ctx)).toEqual([{ method: 'GET', path, query: {}, body: undefined }]);
			expect(result.json).toEqual(ctx.sb.data.segments);
		} finally {
			ctx.store.set(CREDENTIAL_ID, 'cloud4WiApi', {
				...ctx.store.stored(CREDENTIAL_ID),
				organizationId: saved.organizationId,
			});
		}
	});

	test('an organization given as a resource locator value works the same', async () => {
		const result = await runAction(
			ctx,
			segments({ organizationId: { __rl: true, mode: 'id', value: ctx.sb.organizationId }, limit: 3 }),
		);
		expect(result.error).toBeUndefined();
		expect(sentCalls(ctx)).toEqual([{ method: 'GET', path, query: {}, body: undefined }]);
		expect(result.json).toEqual(ctx.sb.data.segments.slice(0, 3));
	});

	test('an unknown organization is a 404 NodeApiError naming it', async () => {
		const result = await runAction(ctx, segments({ organizationId: 'org-unknown', returnAll: true }));
		expect(runFailure(result)).toEqual({
			name: 'NodeApiError',
			message: 'Organization not found: org-unknown',
			description: 'Cloud4Wi has no organization "org-unknown". Check the ID.',
			httpCode: '404',
		});
		expect(apiCalls(ctx.sb)).toEqual(['GET /v2/segments/organizations/org-unknown']);
	});

	test('a 5xx is retried (a read) and the list then comes back', async () => {
		ctx.sb.addFault({ path: '^/v2/segments/', status: 500, retryAfter: 0 });
		const result = await runAction(ctx, segments({ returnAll: true }));
		expect(result.error).toBeUndefined();
		expect(ctx.sb.requests.filter((r) => r.path === path).map((r) => r.status)).toEqual([500, 200]);
		expect(result.json).toEqual(ctx.sb.data.segments);
	});

	test.each<[string, INodeParameters, string]>([
		[
			'an organization ID with "/"',
			segments({ organizationId: 'org/../x', returnAll: true }),
			'Organization ID: "org/../x" contains "/", "\\", "?" or "#", which no Cloud4Wi ID has',
		],
		['limit 0', segments({ limit: 0 }), 'Limit: must be a whole number from 1 to 10000, got "0"'],
		['limit 10001', segments({ limit: 10_001 }), 'Limit: must be a whole number from 1 to 10000, got "10001"'],
	])('input check: %s fails the item and sends nothing', async (_label, parameters, message) => {
		const result = await runAction(ctx, parameters);
		expect(runFailure(result)).toMatchObject({ name: expect.stringMatching(OPERATION_ERROR), message });
		expect(apiCalls(ctx.sb)).toEqual([]);
	});

	test('input check: no organization in the node nor in the credential', async () => {
		const saved = ctx.store.stored(CREDENTIAL_ID);
		ctx.store.set(CREDENTIAL_ID, 'cloud4WiApi', { ...saved, organizationId: '' });
		try {
			const result = await runAction(ctx, segments({ returnAll: true }));
			expect(runFailure(result)).toEqual({
				name: expect.stringMatching(OPERATION_ERROR),
				message: 'Organization ID: is empty, and the Cloud4Wi credential has no default organization',
				description: 'Enter the organization ID here or set a default organization ID in the credential.',
				httpCode: undefined,
			});
			expect(apiCalls(ctx.sb)).toEqual([]);
		} finally {
			ctx.store.set(CREDENTIAL_ID, 'cloud4WiApi', {
				...ctx.store.stored(CREDENTIAL_ID),
				organizationId: saved.organizationId,
			});
		}
	});

	test('organizations from an expression: one request per item, errors as items with Continue On Fail, pairing kept', async () => {
		const org = ctx.sb.organizationId;
		const result = await runAction(
			ctx,
			segments({ organizationId: '={{ $json.org }}', limit: 1 }),
			[{ org }, { org: 'org-unknown' }, { org }],
			{
				continueOnFail: true,
			},
		);
		expect(result.error).toBeUndefined();
		expect(apiCalls(ctx.sb)).toEqual([`GET ${path}`, 'GET /v2/segments/organizations/org-unknown', `GET ${path}`]);
		expect(result.json).toEqual([
			ctx.sb.data.segments[0],
			{
				error: 'Organization not found: org-unknown',
				description: 'Cloud4Wi has no organization "org-unknown". Check the ID.',
				httpCode: '404',
			},
			ctx.sb.data.segments[0],
		]);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});
