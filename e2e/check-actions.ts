// The checks of the action workflows (e2e/actions.e2e.ts): actionChecks(dir) returns one { name, problems, detail }
// per check, problems empty when it passed. With a folder that holds nothing, every check is there and fails: that
// is how the suite learns their names before the workflows run.
// <dir> holds, per workflow KEY (the fixture's file name without .json): KEY.run.json (its run data, as the
// executions API gives it, with the execution's status), or KEY.error (why there is none: the run could not be
// started or did not end), and KEY.requests.json (GET /__admin/requests of the sandbox, cleared before the run); plus
// state-start.json, state-before-revoke.json and state-end.json (GET /__admin/state) and credentials.json
// (`n8n export:credentials --decrypted` after the last run).
import * as fs from 'node:fs';
import * as path from 'node:path';

import { nodeRun, runError, type Json } from './execute-output';
import { readJson as readJsonFile } from './fixtures';
import type { CheckResult } from './trigger-events';

interface WorkflowRun {
	run: Json;
	problem: string | null;
	requests: Json[];
}

export function actionChecks(dir: string): CheckResult[] {
	const readJson = (file: string, fallback: Json = null): Json => readJsonFile(path.join(dir, file), fallback);
	const readText = (file: string) => {
		try {
			return fs.readFileSync(path.join(dir, file), 'utf8');
		} catch {
			return '';
		}
	};

	const KEYS = {
		contacts: '1-contacts',
		seeded: '2-locations-hotspots',
		lifecycle: '3-location-lifecycle',
		revoke: '4-token-revoke',
	};
	const runs: Record<string, WorkflowRun> = {};
	for (const key of Object.values(KEYS)) {
		const run = readJson(`${key}.run.json`);
		runs[key] = {
			run,
			problem: run ? null : readText(`${key}.error`).split('\n')[0] || 'no run data',
			requests: readJson(`${key}.requests.json`, { requests: [] }).requests ?? [],
		};
	}
	const stateStart = readJson('state-start.json', {});
	const stateBeforeRevoke = readJson('state-before-revoke.json', {});
	const stateEnd = readJson('state-end.json', {});
	const ORG = stateEnd.organizationId ?? stateStart.organizationId ?? '';

	const results: CheckResult[] = [];
	function report(name: string, problems: string[], detail: string) {
		results.push({ name, problems, detail });
	}

	const short = (value: unknown, max = 160) => {
		const text = typeof value === 'string' ? value : JSON.stringify(value);
		return text === undefined ? 'undefined' : text.length > max ? `${text.slice(0, max)}...` : text;
	};

	/** A check's working set: collects problems, reads node outputs and sandbox requests. */
	class Check {
		problems: string[] = [];

		fail(message: string) {
			this.problems.push(message);
			return false;
		}

		expect(condition: unknown, message: string) {
			if (!condition) this.fail(message);
			return Boolean(condition);
		}

		/** Output items of a node; a failed node, an error item or a wrong count is a problem. */
		items(
			key: string,
			node: string,
			{
				count,
				min,
				max,
				errorExpected = false,
			}: { count?: number; min?: number; max?: number; errorExpected?: boolean } = {},
		): Json[] {
			const { run } = runs[key];
			if (!run) {
				this.fail(`workflow ${key} has no run data (${runs[key].problem})`);
				return [];
			}
			const result = nodeRun(run, node);
			if (!result.ran) {
				this.fail(`node "${node}" did not run${runError(run) ? ` (run error: ${runError(run)})` : ''}`);
				return [];
			}
			if (result.error) this.fail(`node "${node}" failed: ${result.error}`);
			const errors = result.items.filter((item) => item.error !== undefined);
			if (!errorExpected && errors.length) {
				const e = errors[0];
				this.fail(
					`node "${node}" failed: ${e.error}${e.httpCode ? ` (HTTP ${e.httpCode})` : ''}${e.description ? ` - ${e.description}` : ''}`,
				);
				return [];
			}
			const n = result.items.length;
			if (count !== undefined && n !== count) this.fail(`node "${node}" returned ${n} items, expected ${count}`);
			if (min !== undefined && n < min) this.fail(`node "${node}" returned ${n} items, expected at least ${min}`);
			if (max !== undefined && n > max) this.fail(`node "${node}" returned ${n} items, expected at most ${max}`);
			return result.items;
		}

		/** Every item satisfies the predicate; names the first that does not. */
		every(items: Json[], predicate: (item: Json) => unknown, what: string) {
			const bad = items.find((item) => !predicate(item));
			return this.expect(bad === undefined, `${what}; first offending item: ${short(bad)}`);
		}

		/**
		 * A request the sandbox logged during workflow `key`: same method and path, query containing `query`
		 * (values compared as strings; `absent` lists names that must not be there), body containing `body`,
		 * status 2xx unless `status` is given. Returns the request.
		 */
		request(
			key: string,
			{
				method,
				path: wanted,
				query = {},
				absent = [],
				body,
				status,
			}: {
				method: string;
				path: string;
				query?: Record<string, unknown>;
				absent?: string[];
				body?: Json;
				status?: number;
			},
		): Json {
			const requests = runs[key].requests;
			const candidates = requests.filter((r: Json) => r.method === method && r.path === wanted);
			const statusOk = (r: Json) => (status === undefined ? r.status >= 200 && r.status < 300 : r.status === status);
			const queryOk = (r: Json) =>
				Object.entries(query).every(([name, value]) => r.query?.[name] === String(value)) &&
				absent.every((name) => !(name in (r.query ?? {})));
			const bodyOk = (r: Json) => body === undefined || contains(r.body, body);
			const match = candidates.find((r) => statusOk(r) && queryOk(r) && bodyOk(r));
			if (match) return match;
			if (candidates.length === 0) {
				const seen = requests.map((r: Json) => `${r.method} ${r.path} ${r.status}`).join(', ');
				this.fail(`sandbox saw no ${method} ${wanted} (saw: ${seen || 'nothing'})`);
			} else {
				const r = candidates[candidates.length - 1];
				this.fail(
					`sandbox saw ${method} ${wanted} but not as expected: status ${r.status}, query ${short(r.query)}, body ${short(r.body)}`,
				);
			}
			return null;
		}
	}

	/** Whether `actual` contains `expected`: objects by key (recursively), arrays and scalars exactly. */
	function contains(actual: Json, expected: Json): boolean {
		if (Array.isArray(expected)) return JSON.stringify(actual) === JSON.stringify(expected);
		if (expected && typeof expected === 'object') {
			return (
				actual !== null &&
				typeof actual === 'object' &&
				Object.entries(expected).every(([k, v]) => contains(actual[k], v))
			);
		}
		return actual === expected;
	}

	function check(name: string, body: (c: Check) => string | boolean | void) {
		const c = new Check();
		let detail = '';
		try {
			const said = body(c);
			detail = typeof said === 'string' ? said : '';
		} catch (error) {
			c.fail(`check crashed: ${(error as Error).stack?.split('\n').slice(0, 2).join(' ') ?? String(error)}`);
		}
		report(name, c.problems, detail);
	}

	const isId = (value: unknown) => typeof value === 'string' && value.length > 0;
	const K = KEYS;

	// ---- each workflow ran to its end ----
	for (const key of Object.values(KEYS)) {
		check(`workflow ${key}: the execution finished`, (c) => {
			const { run, problem } = runs[key];
			if (!run) return c.fail(problem ?? 'no run data');
			const error = runError(run);
			c.expect(!error, `execution error: ${error}`);
			c.expect(run.status === 'success', `execution status ${run.status}`);
			const ran = Object.keys(run.data?.resultData?.runData ?? {}).length;
			return `status ${run.status}, ${ran} nodes ran`;
		});
	}

	// ---- contacts, events, WiFi connections, segments ----
	let contacts: Json[] = [];
	check('contact getAll', (c) => {
		contacts = c.items(K.contacts, 'Contacts Get Many', { count: 5 });
		c.every(
			contacts,
			(x) => isId(x.cid) && x.organizationCid === ORG,
			`every contact has a cid and organizationCid ${ORG}`,
		);
		c.request(K.contacts, { method: 'GET', path: `/v2/customers/organizations/${ORG}`, query: { size: 5 } });
		const filtered = c.items(K.contacts, 'Contacts Get Many Filtered', { count: 3 });
		c.every(filtered, (x) => isId(x.cid) && Boolean(x.email), 'with the Has Email filter every contact has an email');
		c.request(K.contacts, {
			method: 'GET',
			path: `/v2/customers/organizations/${ORG}`,
			query: { hasEmail: true, sortBy: 'created', sortReverse: true, size: 3 },
		});
		return 'limit 5 gave 5 contacts with cid (size=5 sent); filters hasEmail/sortBy/sortReverse sent as query';
	});
	const firstCid = contacts[0]?.cid ?? '(none)';
	const lastCid = contacts[contacts.length - 1]?.cid ?? '(none)';

	check('contact get', (c) => {
		const [profile] = c.items(K.contacts, 'Contact Get', { count: 1 });
		c.expect(profile?.cid === firstCid, `expected the profile of ${firstCid}, got ${short(profile)}`);
		c.expect(profile && isId(profile.firstName), 'profile has no firstName');
		c.request(K.contacts, { method: 'GET', path: `/v2/customers/${firstCid}` });
		return `profile of ${firstCid}`;
	});

	check('contact delete', (c) => {
		const [out] = c.items(K.contacts, 'Contact Delete', { count: 1 });
		c.expect(
			out?.contactId === lastCid && out?.deleted === true,
			`expected { contactId: ${lastCid}, deleted: true }, got ${short(out)}`,
		);
		c.request(K.contacts, { method: 'DELETE', path: `/v1/customers/${lastCid}` });
		const [gone] = c.items(K.contacts, 'Get Deleted Contact', { count: 1, errorExpected: true });
		c.expect(
			gone?.httpCode === '404' && /not found|has no/i.test(`${gone?.error} ${gone?.description}`),
			`reading it back should fail with 404, got ${short(gone)}`,
		);
		c.request(K.contacts, { method: 'GET', path: `/v2/customers/${lastCid}`, status: 404 });
		return `deleted ${lastCid}; reading it back gives a 404 error item: "${short(gone?.description, 80)}"`;
	});

	check('contact updateOptIns', (c) => {
		const [out] = c.items(K.contacts, 'Contact Update Opt-Ins', { count: 1 });
		c.expect(out?.allUpdated === true, `expected allUpdated true, got ${short(out)}`);
		c.expect(
			out?.optIns?.mktgCommunications === true && out?.optIns?.['customs.Newsletter'] === false,
			`unexpected optIns ${short(out?.optIns)}`,
		);
		c.request(K.contacts, {
			method: 'PUT',
			path: `/v1/customers/${firstCid}/policies`,
			body: {
				policies: [
					{ policyKey: 'mktgCommunications', accepted: true },
					{ policyKey: 'customs.Newsletter', accepted: false },
				],
			},
		});
		return 'PUT policies [mktgCommunications=true, customs.Newsletter=false], allUpdated';
	});

	check('contact createAccessCode', (c) => {
		const [out] = c.items(K.contacts, 'Contact Create Access Code', { count: 1 });
		c.expect(
			out?.contactId === firstCid && isId(out?.accessCode),
			`expected an accessCode for ${firstCid}, got ${short(out)}`,
		);
		c.request(K.contacts, { method: 'POST', path: `/v2/customers/${firstCid}/otp` });
		return `access code ${out?.accessCode}`;
	});

	let wifiCid = '(none)';
	check('wifiConnection getAll', (c) => {
		const connections = c.items(K.contacts, 'WiFi Connections Get Many', { count: 3 });
		c.every(
			connections,
			(x) => isId(x.customerId) && isId(x.hotspotId) && x.organizationId === ORG,
			'every connection has customerId, hotspotId, organizationId',
		);
		c.request(K.contacts, { method: 'GET', path: `/v2/organizations/${ORG}/accountings`, query: { size: 3 } });
		wifiCid = connections[0]?.customerId ?? wifiCid;
		return '3 organization connections (size=3 sent)';
	});

	check('contact getWifiConnections', (c) => {
		const items = c.items(K.contacts, 'Contact Get WiFi Connections', { min: 1, max: 10 });
		c.every(
			items,
			(x) => isId(x.start) && 'apId' in x && !('customerId' in x),
			'every record has the contact-level shape (start, apId)',
		);
		c.request(K.contacts, { method: 'GET', path: `/v2/customers/${wifiCid}/accountings`, query: { size: 10 } });
		return `${items.length} connections of ${wifiCid}`;
	});

	check('contact getDevices', (c) => {
		const items = c.items(K.contacts, 'Contact Get Devices', { min: 1 });
		c.every(items, (x) => isId(x.macAddress), 'every device has a macAddress');
		c.request(K.contacts, { method: 'GET', path: `/v2/customers/${wifiCid}/devices` });
		return `${items.length} devices of ${wifiCid}`;
	});

	check('contact getLocationEvents', (c) => {
		const items = c.items(K.contacts, 'Contact Get Location Events', { min: 1, max: 10 });
		c.every(items, (x) => isId(x.type) && isId(x.date), 'every record has type and date');
		c.request(K.contacts, { method: 'GET', path: `/v2/customers/${wifiCid}/events` });
		return `${items.length} location events of ${wifiCid}`;
	});

	const CAMPAIGN_KINDS = ['send_email', 'open_email', 'click_email', 'promo', 'survey'];
	let campaignEvents: Json[] = [];
	check('event getAll', (c) => {
		campaignEvents = c.items(K.contacts, 'Events Get Many', { count: 4 });
		c.every(
			campaignEvents,
			(x) => CAMPAIGN_KINDS.includes(x.event?.type) && isId(x.event?.id) && isId(x.customerId),
			`every event is one of ${CAMPAIGN_KINDS.join(',')} with an id`,
		);
		c.request(K.contacts, {
			method: 'GET',
			path: `/v1/organizations/${ORG}/events`,
			query: { events: CAMPAIGN_KINDS.join(','), size: 4 },
		});
		return `4 events of the chosen kinds (events=${CAMPAIGN_KINDS.join(',')}, size=4 sent)`;
	});
	const campaignCid = campaignEvents[0]?.customerId ?? '(none)';

	check('contact getActivities', (c) => {
		const items = c.items(K.contacts, 'Contact Get Activities', { min: 1 });
		c.every(items, (x) => isId(x.type) && isId(x.application), 'every activity has type and application');
		c.request(K.contacts, { method: 'GET', path: `/v2/customers/${campaignCid}/activities` });
		return `${items.length} activities of ${campaignCid}`;
	});

	check('event getAllForContact', (c) => {
		const items = c.items(K.contacts, 'Events Get Many For Contact', { min: 1, max: 20 });
		c.every(items, (x) => x.customerId === campaignCid && isId(x.event?.id), `every event belongs to ${campaignCid}`);
		const firstId = campaignEvents[0]?.event?.id;
		c.expect(
			items.some((x) => x.event?.id === firstId),
			`the contact's events miss ${firstId}, seen in the organization list`,
		);
		c.request(K.contacts, {
			method: 'GET',
			path: `/v1/organizations/${ORG}/customers/${campaignCid}/events`,
			query: { size: 20 },
		});
		return `${items.length} events of ${campaignCid}`;
	});

	check('segment getAll', (c) => {
		const items = c.items(K.contacts, 'Segments Get Many', { min: 1 });
		c.every(items, (x) => isId(x.id) && isId(x.name), 'every segment has id and name');
		const total = stateStart.counts?.segments;
		c.expect(
			total === undefined || items.length === total,
			`Return All gave ${items.length} segments, the sandbox has ${total}`,
		);
		c.request(K.contacts, { method: 'GET', path: `/v2/segments/organizations/${ORG}` });
		return `all ${items.length} segments (organization ID given by expression)`;
	});

	// ---- locations and hotspots on seeded data ----
	let locations: Json[] = [];
	check('location getAll', (c) => {
		locations = c.items(K.seeded, 'Get Many Locations', { min: 2 });
		c.every(
			locations,
			(x) => isId(x.id) && isId(x.name) && x.organziationId === ORG,
			'every location has id, name and organziationId',
		);
		const total = stateStart.counts?.locations;
		c.expect(
			total === undefined || locations.length === total,
			`Return All gave ${locations.length} locations, the sandbox had ${total}`,
		);
		c.request(K.seeded, { method: 'GET', path: `/v1/organizations/${ORG}/locations`, absent: ['tags'] });
		return `all ${locations.length} locations`;
	});
	const loc0 = locations[0]?.id ?? '(none)';
	const locLast = locations[locations.length - 1]?.id ?? '(none)';

	check('location get', (c) => {
		const [loc] = c.items(K.seeded, 'Get Location', { count: 1 });
		c.expect(
			loc?.id === loc0 && typeof loc?.address === 'object',
			`expected location ${loc0} with an address, got ${short(loc)}`,
		);
		c.request(K.seeded, { method: 'GET', path: `/v1/locations/${loc0}` });
		return `location ${loc0} (${loc?.name})`;
	});

	check('location update', (c) => {
		const [out] = c.items(K.seeded, 'Update Location', { count: 1 });
		c.expect(out?.locationId === loc0, `expected locationId ${loc0}, got ${short(out)}`);
		c.request(K.seeded, {
			method: 'PUT',
			path: `/v1/organizations/${ORG}/locations/${loc0}`,
			body: { description: 'updated by the e2e run', tags: ['e2e-updated'] },
		});
		// The spec's Location has no description field, so only the tags can be read back.
		const [after] = c.items(K.seeded, 'Get Updated Location', { count: 1 });
		c.expect(
			after?.id === loc0 && JSON.stringify(after?.tags) === '["e2e-updated"]',
			`tags read back: ${short(after?.tags)} in ${short(after)}`,
		);
		return 'PUT description and tags; the new tags read back';
	});

	check('location delete', (c) => {
		const [out] = c.items(K.seeded, 'Delete Location', { count: 1 });
		c.expect(
			out?.locationId === locLast && out?.deleted === true,
			`expected { locationId: ${locLast}, deleted: true }, got ${short(out)}`,
		);
		c.request(K.seeded, { method: 'DELETE', path: `/v1/organizations/${ORG}/locations/${locLast}` });
		const [gone] = c.items(K.seeded, 'Get Deleted Location', { count: 1, errorExpected: true });
		c.expect(gone?.httpCode === '404', `reading it back should fail with 404, got ${short(gone)}`);
		c.request(K.seeded, { method: 'GET', path: `/v1/locations/${locLast}`, status: 404 });
		return `deleted ${locLast}; reading it back gives 404`;
	});

	let hotspotId = '(none)';
	check('hotspot create', (c) => {
		const [out] = c.items(K.seeded, 'Create Hotspot', { count: 1 });
		c.expect(isId(out?.hotspotId) && out?.locationId === loc0, `expected a hotspotId at ${loc0}, got ${short(out)}`);
		hotspotId = out?.hotspotId ?? hotspotId;
		c.request(K.seeded, {
			method: 'POST',
			path: '/v3/hotspots',
			body: {
				organizationId: ORG,
				venueId: loc0,
				name: 'E2E AP 1',
				routerType: 'meraki',
				latitude: 45.4642,
				longitude: 9.19,
				macAddress: 'AA:BB:CC:00:11:22',
				addressAsLocation: true,
				hotspotIdentifier: 'e2e-ap-0001',
				ssid: 'E2E-WiFi',
			},
		});
		return `hotspot ${hotspotId} at ${loc0}`;
	});

	check('hotspot get', (c) => {
		const [hs] = c.items(K.seeded, 'Get Hotspot', { count: 1 });
		c.expect(
			hs?.id === hotspotId &&
				hs?.venueId === loc0 &&
				hs?.name === 'E2E AP 1' &&
				hs?.hotspotIdentifier === 'e2e-ap-0001',
			`expected the created hotspot, got ${short(hs)}`,
		);
		c.request(K.seeded, { method: 'GET', path: `/v3/hotspots/${hotspotId}` });
		return `hotspot ${hotspotId} by id (resource locator)`;
	});

	check('hotspot getByIdentifier', (c) => {
		const [hs] = c.items(K.seeded, 'Get Hotspot By Identifier', { count: 1 });
		c.expect(hs?.id === hotspotId, `expected hotspot ${hotspotId}, got ${short(hs)}`);
		c.request(K.seeded, { method: 'GET', path: '/v3/hotspots/identifier/e2e-ap-0001' });
		return 'found by identifier e2e-ap-0001';
	});

	check('hotspot update', (c) => {
		const [out] = c.items(K.seeded, 'Update Hotspot', { count: 1 });
		c.expect(out?.hotspotId === hotspotId, `expected hotspotId ${hotspotId}, got ${short(out)}`);
		c.request(K.seeded, {
			method: 'PUT',
			path: `/v3/hotspots/${hotspotId}`,
			body: { name: 'E2E AP 1 Renamed', description: 'updated by the e2e run', enabled: false, locationId: loc0 },
		});
		return 'renamed and disabled; location kept (read first, sent as locationId)';
	});

	check('hotspot getAll', (c) => {
		const items = c.items(K.seeded, 'Get Many Hotspots', { min: 1 });
		c.every(items, (x) => x.venueId === loc0, `every hotspot is at ${loc0}`);
		const mine = items.find((x) => x.id === hotspotId);
		c.expect(mine?.name === 'E2E AP 1 Renamed', `the updated hotspot ${hotspotId} is not listed with its new name`);
		c.request(K.seeded, { method: 'GET', path: `/v3/hotspots/organizations/${ORG}`, query: { venueId: loc0 } });
		return `${items.length} hotspots at ${loc0} (Return All, location filter), the renamed one among them`;
	});

	check('hotspot delete', (c) => {
		const [out] = c.items(K.seeded, 'Delete Hotspot', { count: 1 });
		c.expect(
			out?.hotspotId === hotspotId && out?.deleted === true,
			`expected { hotspotId: ${hotspotId}, deleted: true }, got ${short(out)}`,
		);
		c.request(K.seeded, { method: 'DELETE', path: `/v3/hotspots/${hotspotId}` });
		const [after] = c.items(K.seeded, 'Get Hotspot After Delete', { count: 1, errorExpected: true });
		c.expect(
			after?.deleted === true || after?.httpCode === '404',
			`reading it back should show deleted: true or 404, got ${short(after)}`,
		);
		return `deleted ${hotspotId}; read back as ${after?.deleted === true ? 'deleted: true' : 'HTTP 404'}`;
	});

	// ---- location lifecycle on a new location ----
	let createdLocation = '(none)';
	check('location create', (c) => {
		const [out] = c.items(K.lifecycle, 'Create Location', { count: 1 });
		c.expect(isId(out?.locationId), `expected a locationId, got ${short(out)}`);
		createdLocation = out?.locationId ?? createdLocation;
		c.request(K.lifecycle, {
			method: 'POST',
			path: `/v1/organizations/${ORG}/locations`,
			body: {
				name: 'E2E Test Store',
				timezone: 'Europe/Rome',
				country: 'IT',
				address: 'Via Roma 1',
				city: 'Milan',
				state: 'MI',
				zip: '20121',
				loginProfileId: 'lp-e2e',
				locationProfileId: 'locp-e2e',
				welcomePortalId: 'wp-e2e',
				categoryName: 'bar',
				externalId: 'ext-e2e-1',
				tags: ['e2e-run'],
			},
		});
		return `location ${createdLocation}`;
	});

	check('location lifecycle: create, get, update, find by tag, delete', (c) => {
		const [got] = c.items(K.lifecycle, 'Get Created Location', { count: 1 });
		c.expect(
			got?.id === createdLocation && got?.name === 'E2E Test Store' && got?.address?.city === 'Milan',
			`get: ${short(got)}`,
		);
		const [updated] = c.items(K.lifecycle, 'Update Created Location', { count: 1 });
		c.expect(updated?.locationId === createdLocation, `update: ${short(updated)}`);
		const found = c.items(K.lifecycle, 'Find Created Location', { count: 1 });
		c.expect(
			found[0]?.id === createdLocation && found[0]?.name === 'E2E Test Store Renamed',
			`find by tag e2e-run: ${short(found)}`,
		);
		c.request(K.lifecycle, { method: 'GET', path: `/v1/organizations/${ORG}/locations`, query: { tags: 'e2e-run' } });
		const [deleted] = c.items(K.lifecycle, 'Delete Created Location', { count: 1 });
		c.expect(deleted?.locationId === createdLocation && deleted?.deleted === true, `delete: ${short(deleted)}`);
		return `${createdLocation} went through the whole chain`;
	});

	// ---- token ----
	check('token revoke', (c) => {
		const [out] = c.items(K.revoke, 'Revoke Token', { count: 1 });
		c.expect(out?.revoked === true, `expected { revoked: true }, got ${short(out)}`);
		const logout = c.request(K.revoke, { method: 'POST', path: '/v1/sts/logout', status: 200 });
		c.expect(!logout || /^Bearer \S+/.test(logout.authorization ?? ''), 'logout was sent without a bearer token');
		const after = c.items(K.revoke, 'Segments After Revoke', { count: 2 });
		c.every(after, (x) => isId(x.id), 'segments after revoke have ids');
		// After the logout the stored token is refused once, n8n logs in again and repeats the request.
		const sequence = runs[K.revoke].requests.map((r) => `${r.method} ${r.path.replace(ORG, '{org}')} ${r.status}`);
		const expected = [
			'POST /v1/sts/logout 200',
			`GET /v2/segments/organizations/{org} ${stateEnd.expiredStatus ?? 403}`,
			'POST /v1/sts/login/services 200',
			'GET /v2/segments/organizations/{org} 200',
		];
		c.expect(
			JSON.stringify(sequence) === JSON.stringify(expected),
			`requests were [${sequence.join(', ')}], expected [${expected.join(', ')}]`,
		);
		return 'logout 200; the next operation got 403, logged in again and succeeded';
	});

	// ---- across workflows ----
	const loginsIn = (key: string) =>
		runs[key].requests.filter((r) => r.method === 'POST' && r.path === '/v1/sts/login/services').length;
	// A new process reusing the stored token is checked by actions.e2e.ts's expiry runs (the third: 0 logins).
	check('one login for all executions before the revoke (the token reused)', (c) => {
		const keys = [K.contacts, K.seeded, K.lifecycle];
		const logins = (stateBeforeRevoke.logins ?? NaN) - (stateStart.logins ?? 0);
		const perRun = keys.map((key) => `${key}: ${loginsIn(key)}`).join(', ');
		c.expect(logins === 1, `${logins} logins across ${keys.length} executions (${perRun})`);
		return `${keys.length} executions, 1 login (${perRun})`;
	});

	check('session token persisted in the stored credential', (c) => {
		const exported = readJson('credentials.json', []);
		const credential = (Array.isArray(exported) ? exported : []).find((x) => x.type === 'cloud4WiApi');
		if (!c.expect(credential, 'no cloud4WiApi credential in the export')) return '';
		const token = credential.data?.sessionToken;
		c.expect(isId(token), 'the stored credential has no sessionToken');
		const lastAuth = [...runs[K.revoke].requests].reverse().find((r) => r.authorization)?.authorization;
		c.expect(lastAuth === `Bearer ${token}`, 'the stored sessionToken is not the token of the last request');
		c.expect(credential.data?.clientSecret !== undefined, 'the client secret is missing from the credential');
		return 'the token n8n obtained is saved (encrypted) in the credential and is the one the last request used';
	});

	check('no unexpected HTTP errors from the sandbox during the action runs', (c) => {
		const allowed = new Set([
			`GET /v2/customers/${lastCid} 404`,
			`GET /v1/locations/${locLast} 404`,
			`GET /v3/hotspots/${hotspotId} 404`,
			`GET /v2/segments/organizations/${ORG} ${stateEnd.expiredStatus ?? 403}`,
		]);
		const unexpected = Object.values(KEYS).flatMap((key) =>
			runs[key].requests
				.filter((r) => r.status >= 400 || r.status === 0)
				.map((r) => `${r.method} ${r.path} ${r.status}`)
				.filter((line) => !allowed.has(line))
				.map((line) => `${key}: ${line}`),
		);
		c.expect(unexpected.length === 0, unexpected.join(', '));
		const total = Object.values(KEYS).reduce((n, key) => n + runs[key].requests.length, 0);
		return `${total} requests, only the deliberate 404s and the refused revoked token`;
	});

	return results;
}
