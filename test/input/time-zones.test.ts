import type { INodeParameters } from 'n8n-workflow';

import type { TestContext } from '../harness/cloud4wi';
import { LOCATION_REQUIRED, runAction, startCloud4Wi } from '../harness/cloud4wi';

let ctx: TestContext;
beforeAll(async () => {
	ctx = await startCloud4Wi({ contacts: 5 });
});
afterAll(async () => await ctx.sb.close());
beforeEach(() => ctx.sb.clearRequests());

const rl = (value: string) => ({ __rl: true, mode: 'id', value });
const sent = () => ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login'));

const FIELDS: Array<[string, (zone: string) => INodeParameters, () => unknown]> = [
	[
		'Location Create, Time Zone',
		(timezone) => ({ resource: 'location', operation: 'create', ...LOCATION_REQUIRED, timezone }),
		() => (sent()[0].body as { timezone: string }).timezone,
	],
	[
		'Location Update, Update Fields > Time Zone',
		(timezone) => ({ resource: 'location', operation: 'update', locationId: rl('l-1'), updateFields: { timezone } }),
		() => (sent()[0].body as { timezone: string }).timezone,
	],
	[
		'WiFi Connection Get Many, Filters > Time Zone',
		(timeZone) => ({ resource: 'wifiConnection', operation: 'getAll', limit: 1, filters: { timeZone } }),
		() => sent()[0].query.timeZone,
	],
];

describe.each(FIELDS)('%s', (_, params, value) => {
	test.each([
		['europe/rome', 'Europe/Rome'],
		[' AMERICA/ARGENTINA/SALTA ', 'America/Argentina/Salta'],
		['Europe/Rome', 'Europe/Rome'],
		['Asia/Kolkata', 'Asia/Kolkata'],
	])('%j is sent as %s', async (typed, zone) => {
		await runAction(ctx, params(typed));
		expect(sent()).toHaveLength(1);
		expect(value()).toBe(zone);
	});
});
