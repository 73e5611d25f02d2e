/**
 * WiFi Connection > Get Many, run through the engine against the sandbox. Every test checks what the sandbox received
 * and what the node returned.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { LoggedRequest, WifiConnection } from '../../sandbox';
import { expectInputError, runAction, sandboxPerFile } from '../../harness/cloud4wi';

const CONNECTIONS = 25_000;

const ctx = sandboxPerFile({ connections: CONNECTIONS });
let org: string;

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const apiRequests = (): LoggedRequest[] => ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login'));
const accountingsPath = () => `/v2/organizations/${org}/accountings`;

beforeAll(async () => {
	org = ctx.sb.organizationId;
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in once, up front
});

describe('wifiConnection: Get Many', () => {
	test('Return All scrolls with sid through three pages of the same size', async () => {
		const { error, json: out } = await runAction(ctx, {
			resource: 'wifiConnection',
			operation: 'getAll',
			returnAll: true,
		});
		expect(error).toBeUndefined();
		const pages = apiRequests();
		expect(pages.map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill(`GET ${accountingsPath()}`));
		expect(pages[0].query).toEqual({ size: '10000' });
		const sid = pages[1].query.sid;
		expect(sid).toEqual(expect.any(String));
		expect(pages[1].query).toEqual({ size: '10000', sid });
		expect(pages[2].query).toEqual({ size: '10000', sid });
		expect(out).toEqual(json(ctx.sb.data.connections));
	});

	test('Limit stops early: 10,000 connections in one page though more exist, 20 in one page of 20', async () => {
		const many = await runAction(ctx, { resource: 'wifiConnection', operation: 'getAll', limit: 10_000 });
		expect(many.error).toBeUndefined();
		expect(apiRequests().map((r) => r.query)).toEqual([{ size: '10000' }]);
		expect(many.json).toEqual(json(ctx.sb.data.connections.slice(0, 10_000)));

		ctx.sb.clearRequests();
		const few = await runAction(ctx, { resource: 'wifiConnection', operation: 'getAll', limit: 20 });
		expect(apiRequests().map((r) => r.query)).toEqual([{ size: '20' }]);
		expect(few.json).toEqual(json(ctx.sb.data.connections.slice(0, 20)));
	});

	test('filters: location, hotspot, dates as UTC instants and the time zone', async () => {
		const sample = ctx.sb.data.connections[CONNECTIONS / 2];
		const start = Date.parse(sample.start);
		const from = new Date(start - 10 * 86_400_000);
		const to = new Date(start + 2 * 86_400_000);
		const { error, json: out } = await runAction(ctx, {
			resource: 'wifiConnection',
			operation: 'getAll',
			returnAll: true,
			filters: {
				locationId: sample.locationId,
				hotspotId: sample.hotspotId,
				dateStart: from.toISOString().replace('Z', '+00:00'),
				dateEnd: to.toISOString(),
				timeZone: 'Europe/Rome',
			},
		});
		expect(error).toBeUndefined();
		expect(apiRequests().map(({ method, path, query }) => ({ method, path, query }))).toEqual([
			{
				method: 'GET',
				path: accountingsPath(),
				query: {
					size: '10000',
					locationId: sample.locationId,
					hotspotId: sample.hotspotId,
					dateStart: from.toISOString(),
					dateEnd: to.toISOString(),
					timeZone: 'Europe/Rome',
				},
			},
		]);
		const expected = ctx.sb.data.connections.filter(
			(c: WifiConnection) =>
				c.locationId === sample.locationId &&
				c.hotspotId === sample.hotspotId &&
				Date.parse(c.start) >= from.getTime() &&
				Date.parse(c.start) <= to.getTime(),
		);
		expect(expected.length).toBeGreaterThan(0);
		expect(out).toEqual(json(expected));
	});
});

describe('input checks: the item fails with a NodeOperationError naming the field, and nothing is sent', () => {
	const wifi = { resource: 'wifiConnection', operation: 'getAll', limit: 5 };
	test.each<[string, INodeParameters, string]>([
		['limit 2.5', { ...wifi, limit: 2.5 }, 'Limit'],
		['time zone CET', { ...wifi, filters: { timeZone: 'CET' } }, 'Filters > Time Zone'],
		['time zone Mars/Base', { ...wifi, filters: { timeZone: 'Mars/Base' } }, 'Filters > Time Zone'],
		['location id with ?', { ...wifi, filters: { locationId: 'loc?x' } }, 'Filters > Location'],
		['hotspot id with #', { ...wifi, filters: { hotspotId: 'hs#1' } }, 'Filters > Hotspot'],
		['malformed WiFi From', { ...wifi, filters: { dateStart: '2021-13-01T00:00:00Z' } }, 'Filters > From'],
		[
			'WiFi From after To',
			{ ...wifi, filters: { dateStart: '2021-03-02T00:00:00Z', dateEnd: '2021-03-01T23:00:00Z' } },
			'Filters > From',
		],
	])('%s', async (_name, parameters, field) => {
		expectInputError(ctx, await runAction(ctx, parameters), field);
	});
});

describe('service errors', () => {
	test('429 with Retry-After 0 on a read is retried and the listing completes', async () => {
		ctx.sb.addFault({ method: 'GET', path: '/accountings$', status: 429, retryAfter: 0, times: 2 });
		const { error, json: out } = await runAction(ctx, { resource: 'wifiConnection', operation: 'getAll', limit: 7 });
		expect(error).toBeUndefined();
		expect(apiRequests().map((r) => [r.status, r.query])).toEqual([
			[429, { size: '7' }],
			[429, { size: '7' }],
			[200, { size: '7' }],
		]);
		expect(out).toEqual(json(ctx.sb.data.connections.slice(0, 7)));
	});
});
