import { apiCalls, LOCATION_REQUIRED, runAction, startCloud4Wi } from '../harness/cloud4wi';
import type { TestContext } from '../harness/cloud4wi';
import { atScale } from '../harness/engine';

const UNSURE = 'The write may or may not have been applied: check in Cloud4Wi before running it again.';

let ctx: TestContext;
beforeEach(async () => {
	ctx = await startCloud4Wi();
});
afterEach(async () => await ctx.sb.close());

const creates = () => ({
	'Contact > Create Access Code': {
		resource: 'contact',
		operation: 'createAccessCode',
		contactId: ctx.sb.data.contacts[0]!.cid,
	},
	'Hotspot > Create': {
		resource: 'hotspot',
		operation: 'create',
		name: 'Lobby AP',
		routerType: 'meraki',
		macAddress: 'aa-bb-cc-dd-ee-0f',
		locationId: ctx.sb.data.locations[0]!.id,
		latitude: 45.4642,
		longitude: 9.19,
	},
	'Location > Create': { resource: 'location', operation: 'create', ...LOCATION_REQUIRED },
});

describe.each([500, 502, 503, 504])('a create answered %s', (status) => {
	test.each(['Contact > Create Access Code', 'Hotspot > Create', 'Location > Create'] as const)(
		'%s: sent once; the service message and status, and a hint that it may have been applied',
		async (name) => {
			ctx.sb.addFault({ method: 'POST', path: '^/v[0-9]/(?!sts)', status, body: { message: 'Upstream timed out' } });
			const result = await runAction(ctx, creates()[name], [{}], { continueOnFail: true });
			expect(result.json).toEqual([{ error: 'Upstream timed out', description: UNSURE, httpCode: String(status) }]);
			expect(apiCalls(ctx.sb).filter((c) => c.startsWith('POST'))).toHaveLength(1);
		},
	);
});

test('a read answered 503 every try keeps its hint', async () => {
	ctx.sb.addFault({ method: 'GET', path: '^/v2/segments/', status: 503, times: 10, body: { message: 'Busy' } });
	const result = await atScale(1 / 50, () =>
		runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }),
	);
	expect(result.error?.description).toBe('Cloud4Wi had an internal error. Try again later.');
});
