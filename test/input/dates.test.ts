import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { runAction, startCloud4Wi, triggerWorkflow } from '../harness/cloud4wi';
import { buildWorkflow, lastThrownError, pollOnce } from '../harness/engine';

const MAPPED = '={{ $json.v }}';

/** Operation, the field's label, the query parameter it fills, and the node's parameters with the field set. */
type Row = [string, string, string, (v: string) => INodeParameters];
const DATE_FIELDS: Row[] = [
	...(
		[
			['createdStart', 'Created After'],
			['createdEnd', 'Created Before'],
			['modifiedStart', 'Modified After'],
			['modifiedEnd', 'Modified Before'],
		] as const
	).map(
		([name, label]): Row => [
			'contact getAll',
			`Filters > ${label}`,
			name,
			(v) => ({ resource: 'contact', operation: 'getAll', limit: 1, filters: { [name]: v } }),
		],
	),
	...['getAll', 'getAllForContact', 'wifiConnection'].flatMap((operation) =>
		(
			[
				['dateStart', 'From'],
				['dateEnd', 'To'],
			] as const
		).map(
			([name, label]): Row => [
				operation,
				`Filters > ${label}`,
				name,
				(v) =>
					operation === 'wifiConnection'
						? { resource: 'wifiConnection', operation: 'getAll', limit: 1, filters: { [name]: v } }
						: { resource: 'event', operation, contactId: 'c-1', limit: 1, filters: { [name]: v } },
			],
		),
	),
];

let ctx: TestContext;
beforeAll(async () => {
	ctx = await startCloud4Wi({ contacts: 5 });
});
afterAll(async () => await ctx.sb.close());
beforeEach(() => ctx.sb.clearRequests());

const apiRequests = () => ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login'));

describe.each(DATE_FIELDS)('%s, %s', (_, label, name, params) => {
	test.each([
		[['2025-03-01'], 'a list'],
		[{ date: '2025-03-01' }, 'an object'],
	])('mapped %j: refused by its kind, naming the field, nothing sent', async (value, kind) => {
		const result = await runAction(ctx, params(MAPPED), [{ v: value as IDataObject }]);
		expect(result.error).toBeDefined();
		const error = lastThrownError();
		expect(error).toBeInstanceOf(NodeOperationError);
		expect((error as Error).message).toBe(`${label}: must be a date-time, got ${kind}`);
		expect(ctx.sb.requests).toEqual([]);
	});

	test.each([
		['a text with an offset', MAPPED, '2025-03-01T10:00:00+02:00', '2025-03-01T08:00:00.000Z'],
		[
			'a Luxon DateTime',
			"={{ DateTime.fromISO('2025-03-01T10:00:00', { zone: 'Asia/Tokyo' }) }}",
			undefined,
			'2025-03-01T01:00:00.000Z',
		],
		['a JS Date', "={{ new Date('2025-03-01T10:00:00Z') }}", undefined, '2025-03-01T10:00:00.000Z'],
	])('%s goes through, in UTC', async (_, expression, value, sent) => {
		await runAction(ctx, params(expression), [{ v: value as string }]);
		expect(apiRequests().map((r) => r.query[name])).toEqual([sent]);
	});
});

test('Continue On Fail: each bad date fails its own item, paired, and the good ones are sent', async () => {
	const result = await runAction(
		ctx,
		{ resource: 'event', operation: 'getAll', limit: 1, filters: { dateStart: MAPPED } },
		[{ v: '2025-03-01T00:00:00Z' }, { v: ['2025-03-01'] }, { v: '2025-02-30' }, { v: '2025-03-02' }],
		{ continueOnFail: true },
	);
	expect(result.error).toBeUndefined();
	const failed = result.items.filter((i) => i.json.error).map((i) => [i.pairedItem, i.json.error]);
	expect(failed).toEqual([
		[{ item: 1 }, 'Filters > From: must be a date-time, got a list'],
		[{ item: 2 }, 'Filters > From: "2025-02-30" is not an ISO 8601 date-time'],
	]);
	expect(apiRequests().map((r) => r.query.dateStart)).toEqual(['2025-03-01T00:00:00.000Z', '2025-03-02T05:00:00.000Z']);
});

describe('trigger, Options > Start Date', () => {
	const poll = async (startDate: string) =>
		await pollOnce(
			buildWorkflow(triggerWorkflow({ events: [], options: { startFrom: 'date', startDate } })),
			ctx.store,
			'Trigger',
		).then(
			() => undefined,
			(error: Error) => error,
		);

	test.each([
		["={{ ['2025-03-01'] }}", 'must be a date-time, got a list'],
		["={{ { date: '2025-03-01' } }}", 'must be a date-time, got an object'],
		['', 'is empty'],
		['2025-02-30T00:00:00', '"2025-02-30T00:00:00" is not an ISO 8601 date-time'],
	])('%j: refused naming the field, nothing sent', async (startDate, problem) => {
		const error = await poll(startDate);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error!.message).toBe(`Options > Start Date: ${problem}`);
		expect(apiRequests()).toEqual([]);
	});
});
