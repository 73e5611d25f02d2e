import type { TestContext } from '../../harness/cloud4wi';
import { runAction, startCloud4Wi } from '../../harness/cloud4wi';
import { recordsOf } from '../../../nodes/Cloud4Wi/shared/paginate';

let ctx: TestContext;
afterEach(async () => await ctx.sb.close());

const cases: Array<[string, string, string]> = [
	['getDevices', 'devices', '[{"macAddress":"AA:BB:CC:DD:EE:FF","connections":3}]'],
	['getActivities', 'activities', '[{"id":"a1","type":"survey"}]'],
	['getLocationEvents', 'events', '[{"id":"v1","type":"visit","duration":600}]'],
];

test.each(cases)('Contact > %s returns the records of a bare JSON array answer', async (operation, suffix, raw) => {
	ctx = await startCloud4Wi();
	const contactId = ctx.sb.data.contacts[0]!.cid;
	ctx.sb.addFault({ method: 'GET', path: `/${suffix}$`, status: 200, rawBody: raw, contentType: 'application/json' });
	const result = await runAction(ctx, { resource: 'contact', operation, contactId, returnAll: true });
	expect(result.error).toBeUndefined();
	expect(result.json).toEqual(JSON.parse(raw));
});

/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
describe('recordsOf', () => {
	test('the named array, else the first array of an undocumented answer, else none', () => {
		expect(recordsOf({ generated: 'x', customers: [{ cid: '1' }] }, 'customers')).toEqual([{ cid: '1' }]);
		expect(recordsOf({ generated: 'x', items: [{ id: 1 }] }, 'devices')).toEqual([{ id: 1 }]);
		expect(recordsOf({ generated: 'x' }, 'devices')).toEqual([]);
	});
});
