/**
 * The six workflows of examples/, imported into the real n8n 2.40.7 as users import them (n8n import:workflow,
 * credential found by its name) and run as the editor's "Execute workflow" button runs them (POST
 * /rest/workflows/:id/run; for the Cloud4Wi Trigger that is Fetch Test Event), placeholders left as they are,
 * against the sandbox. `n8n execute` cannot run them: it starts only from a Manual or Execute Workflow Trigger.
 * The sixth, a chat-started AI Agent, needs a model: here it is imported and checked; the AI agent e2e runs it.
 *
 * The credential is imported by useE2E (./fixtures) under the name the examples look for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { nodeRun, runError, runFromEditor } from './execute-output';
import { importWorkflows, sandboxToken, useE2E } from './fixtures';

const EXAMPLES = join(__dirname, '..', 'examples');
const CREDENTIAL_NAME = 'Cloud4Wi account'; // the name the examples refer to
const LOCATION = {
	milano: 'ca1783617efbe7c227910819',
	roma: '6766fad628878a93bc94b361',
	paris: '36088bfb869e7a2be6e9be73',
};

const CREDENTIAL = { id: 'c4wExamplesCred1', name: CREDENTIAL_NAME };
const e2e = useE2E('examples', { credential: CREDENTIAL });

type Json = Record<string, unknown>;
interface NodeRun {
	ran: boolean;
	status?: string;
	error?: string;
	items: Json[];
}
interface Execution {
	status: string;
	error?: string;
	node(name: string): NodeRun;
}

/** Runs a workflow from its trigger as the editor's "Execute workflow" does and waits (at most 60 s) for the result. */
async function runManually(workflowId: string, trigger: string): Promise<Execution> {
	const { status, run } = await runFromEditor(e2e.n8n, workflowId, trigger);
	return {
		status,
		error: runError(run) ?? undefined,
		node(name) {
			const ran = nodeRun(run, name);
			return ran.ran
				? { ran: true, status: ran.status, error: ran.error ?? undefined, items: ran.items }
				: { ran: false, items: [] };
		},
	};
}

/** The sandbox's own API, logged in with the demo key, for setting up data the way Cloud4Wi would change it. */
async function cloud4Wi<T>(method: string, path: string, body?: unknown): Promise<T> {
	const token = await sandboxToken(e2e.sandbox.url, e2e.sandbox.credentials);
	const response = await fetch(`${e2e.sandbox.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
	return (await response.json()) as T;
}

interface SandboxContact {
	cid: string;
	firstName: string;
	lastName: string;
	email: string | null;
	logins: number;
}
const contacts = async (query: string) =>
	(
		await cloud4Wi<{ customers: SandboxContact[] }>(
			'GET',
			`/v2/customers/organizations/${e2e.sandbox.credentials.organizationId}?size=200&${query}`,
		)
	).customers;
const inject = (events: Json[]) => e2e.sandbox.admin('POST', '/__admin/events', events);
const apiRequests = async () =>
	(
		await e2e.sandbox.admin<{
			requests: Array<{ method: string; path: string; query: Record<string, string>; status: number }>;
		}>('GET', '/__admin/requests')
	).requests;

const examples = readdirSync(EXAMPLES)
	.filter((f) => f.endsWith('.json'))
	.map((file) => JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as { id: string; name: string; nodes: Json[] });
const idOf = (prefix: string) => {
	const found = examples.find((w) => w.id.startsWith(prefix));
	if (!found) throw new Error(`no example with id ${prefix}…`);
	return found.id;
};

// The examples, as users import them.
beforeAll(() => importWorkflows(e2e.n8n, EXAMPLES), 180_000);

test('the six examples import, each Cloud4Wi node (and tool) linked to the "Cloud4Wi account" credential by its name', async () => {
	expect(examples).toHaveLength(6);
	for (const example of examples) {
		const stored = await e2e.n8n.rest<{ nodes: Array<{ name: string; type: string; credentials?: Json }> }>(
			'GET',
			`/rest/workflows/${example.id}`,
		);
		const cloud4WiNodes = stored.nodes.filter((n) => n.type.startsWith('n8n-nodes-cloud4wi.'));
		expect(cloud4WiNodes.length).toBeGreaterThan(0);
		for (const node of cloud4WiNodes) {
			expect({ node: node.name, credential: node.credentials?.cloud4WiApi }).toEqual({
				node: node.name,
				credential: CREDENTIAL,
			});
		}
	}
});

test('1. opt-in sync: contacts changed since the last hour with the marketing opt-in reach the CRM placeholder as CRM records', async () => {
	const [optedIn, optedOut] = await contacts('hasEmail=true');
	// Changing opt-ins changes a contact's `modified`, as in Cloud4Wi.
	await cloud4Wi('PUT', `/v1/customers/${optedIn.cid}/policies`, {
		policies: [{ policyKey: 'mktgCommunications', accepted: true }],
	});
	await cloud4Wi('PUT', `/v1/customers/${optedOut.cid}/policies`, {
		policies: [{ policyKey: 'mktgCommunications', accepted: false }],
	});
	await e2e.sandbox.admin('DELETE', '/__admin/requests');

	const run = await runManually(idOf('c4wExample1'), 'Every hour');
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');

	const query = (await apiRequests()).find((r) => r.path.startsWith('/v2/customers/organizations/'))?.query ?? {};
	expect(query).toMatchObject({ hasEmail: 'true', mktgCommunications: 'true' });
	const lookBack = Date.now() - Date.parse(query.modifiedStart);
	expect(lookBack).toBeGreaterThan(64 * 60_000);
	expect(lookBack).toBeLessThan(70 * 60_000);

	const records = run.node('Replace me: send to your CRM (HubSpot, Mailchimp, Sheets)').items;
	const ids = records.map((r) => r.cloud4wiContactId);
	expect(ids).toContain(optedIn.cid);
	expect(ids).not.toContain(optedOut.cid);
	expect(records.find((r) => r.cloud4wiContactId === optedIn.cid)).toEqual({
		email: optedIn.email,
		firstName: optedIn.firstName,
		lastName: optedIn.lastName,
		phone: expect.any(String),
		country: expect.stringMatching(/^[A-Z]{2}$/),
		marketingConsent: true,
		consentSource: 'Cloud4Wi guest WiFi',
		signupLocation: expect.any(String),
		lastWifiLogin: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
		tags: expect.any(String),
		cloud4wiContactId: optedIn.cid,
	});
	for (const record of records)
		expect(record).toMatchObject({ marketingConsent: true, email: expect.stringContaining('@') });
});

test('2. welcome on signup: a signup gives a welcome email to the guest; a guest without email gets none', async () => {
	const [guest] = await contacts('hasEmail=true');
	await inject([{ type: 'signup', customerId: guest.cid, locationId: LOCATION.milano }]);
	const run = await runManually(idOf('c4wExample2'), 'New WiFi signup');
	expect(run.error).toBeUndefined();
	expect(run.node('New WiFi signup').items).toEqual([
		expect.objectContaining({
			type: 'signup',
			contactId: guest.cid,
			contact: expect.objectContaining({ email: guest.email }),
		}),
	]);
	expect(run.node('Replace me: send the welcome email (Gmail, Outlook, SendGrid)').items).toEqual([
		expect.objectContaining({
			to: guest.email,
			subject: `Welcome to Milano Outlet WiFi, ${guest.firstName}!`,
			text: expect.stringContaining(`Hi ${guest.firstName},`),
			contactId: guest.cid,
		}),
	]);

	const [noEmail] = await contacts('hasEmail=false');
	await inject([{ type: 'signup', customerId: noEmail.cid, locationId: LOCATION.milano }]);
	const second = await runManually(idOf('c4wExample2'), 'New WiFi signup');
	expect(second.status).toBe('success');
	expect(second.node('New WiFi signup').items).toEqual([expect.objectContaining({ contactId: noEmail.cid })]);
	expect(second.node('Only guests with an email').items).toEqual([]);
	expect(second.node('Replace me: send the welcome email (Gmail, Outlook, SendGrid)').ran).toBe(false);
});

test('3. visit alert: a returning guest at a chosen location raises an alert; a first-timer does not, a visit elsewhere is ignored', async () => {
	const page = await contacts('hasEmail=true');
	const regular = page.find((c) => c.logins > 1)!;
	const firstTimer = page.find((c) => c.logins === 1)!;
	expect([regular, firstTimer]).toEqual([expect.anything(), expect.anything()]);

	await inject([{ type: 'visit', customerId: regular.cid, locationId: LOCATION.roma }]);
	const run = await runManually(idOf('c4wExample3'), 'Visit at chosen locations');
	expect(run.error).toBeUndefined();
	expect(run.node('Replace me: notify your team (Slack, Teams, email)').items).toEqual([
		expect.objectContaining({
			text: expect.stringContaining(
				`${regular.firstName} ${regular.lastName} is back at Roma Station (${regular.logins} WiFi logins`,
			),
			location: 'Roma Station',
			contactId: regular.cid,
			logins: regular.logins,
		}),
	]);

	// The latest visit is the regular's at Paris (not chosen): it must be passed over for the first-timer's at Milano.
	await inject([{ type: 'visit', customerId: firstTimer.cid, locationId: LOCATION.milano }]);
	await new Promise((resolve) => setTimeout(resolve, 20));
	await inject([{ type: 'visit', customerId: regular.cid, locationId: LOCATION.paris }]);
	const second = await runManually(idOf('c4wExample3'), 'Visit at chosen locations');
	expect(second.status).toBe('success');
	expect(second.node('Visit at chosen locations').items).toEqual([
		expect.objectContaining({
			contactId: firstTimer.cid,
			locationName: 'Milano Outlet',
			contact: expect.objectContaining({ logins: 1 }),
		}),
	]);
	expect(second.node('Returning guests only').items).toEqual([]);
	expect(second.node('Replace me: notify your team (Slack, Teams, email)').ran).toBe(false);
});

test('4. hotspot import: good rows become hotspots, bad rows are reported with the reason, none stops the others', async () => {
	await e2e.sandbox.admin('DELETE', '/__admin/requests');
	const run = await runManually(idOf('c4wExample4'), 'Run the import');
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');

	const perRow = run.node('Result per row').items;
	expect(perRow.map((r) => [r.row, r.status])).toEqual([
		['Milano Outlet AP entrance', 'created'],
		['Milano Outlet AP food court', 'created'],
		['Roma Station AP platform 1', 'created'],
		['Roma Station AP typo in MAC', 'failed'],
		['Firenze AP unknown location', 'failed'],
		['Firenze Outlet AP swapped coordinates', 'failed'],
	]);
	for (const row of perRow.slice(0, 3)) expect(row.hotspotId).toMatch(/^[0-9a-f]{24}$/);

	const [summary] = run.node('Summary: what failed and why').items;
	expect(summary).toEqual({
		rows: 6,
		created: 3,
		failed: 3,
		failures: [
			{ row: 'Roma Station AP typo in MAC', reason: expect.stringMatching(/^MAC Address: .*not a MAC address/) },
			{ row: 'Firenze AP unknown location', reason: expect.stringMatching(/location.*ffffffffffffffffffffffff/i) },
			{ row: 'Firenze Outlet AP swapped coordinates', reason: expect.stringMatching(/^Latitude: /) },
		],
	});

	// Rows the node can tell are wrong are never sent; the unknown location is Cloud4Wi's 404.
	const creates = (await apiRequests()).filter((r) => r.method === 'POST' && r.path === '/v3/hotspots');
	expect(creates.map((r) => r.status).sort()).toEqual([200, 200, 200, 404]);
	for (const id of perRow.slice(0, 3).map((r) => r.hotspotId)) {
		const { hotspot } = await cloud4Wi<{ hotspot: { id: string } }>('GET', `/v3/hotspots/${String(id)}`);
		expect(hotspot.id).toBe(id);
	}
});

test("5. export: yesterday's WiFi connections, all of them, as flat spreadsheet rows", async () => {
	await e2e.sandbox.admin('DELETE', '/__admin/requests');
	const run = await runManually(idOf('c4wExample5'), 'Every day at 6:00');
	expect(run.error).toBeUndefined();
	expect(run.status).toBe('success');

	const query = (await apiRequests()).find((r) => r.path.endsWith('/accountings'))?.query ?? {};
	const from = Date.parse(query.dateStart);
	const to = Date.parse(query.dateEnd);
	expect(to - from).toBe(24 * 3600_000 - 1); // one whole day
	expect(to).toBeLessThan(Date.now());
	expect(Date.now() - to).toBeLessThanOrEqual(24 * 3600_000 + 1);

	// The same day read straight from the API: the export must have every connection of it.
	const { connections } = await cloud4Wi<{ connections: Array<{ start: string }> }>(
		'GET',
		`/v2/organizations/${e2e.sandbox.credentials.organizationId}/accountings?size=10000&dateStart=${encodeURIComponent(
			query.dateStart,
		)}&dateEnd=${encodeURIComponent(query.dateEnd)}`,
	);
	const rows = run.node('Replace me: append to your sheet (Google Sheets, Excel, a database)').items;
	expect(connections.length).toBeGreaterThan(0);
	expect(rows.map((r) => r['Start (UTC)']).sort()).toEqual(connections.map((c) => c.start).sort());

	const columns = [
		'Date',
		'Start',
		'End',
		'Minutes',
		'MB',
		'Location',
		'Hotspot',
		'Contact ID',
		'Device MAC',
		'Ended by',
		'Start (UTC)',
	];
	for (const row of rows) {
		expect(Object.keys(row)).toEqual(columns);
		for (const value of Object.values(row)) expect(['string', 'number']).toContain(typeof value);
		expect(row.Date).toMatch(/^\d{4}-\d\d-\d\d$/);
		expect(row.Start).toMatch(/^\d\d:\d\d$/);
	}
});
