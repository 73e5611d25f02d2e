/**
 * Bulk runs (issue 8), in one run, against the sandbox in a child process answering in 40 ms:
 * - 1,000 Update Opt-Ins items through our node and the same 1,000 PUTs through n8n's HTTP Request node,
 *   without a limit and with a 16-in-flight limit (429 + Retry-After above it; floor = 1,000 x 40 ms / 16), and the
 *   same PUTs from 16 bare undici workers that know the limit (what the sandbox allows a client with nothing to learn);
 * - 1,000 Get contact items; a token that expires mid-run; a first run with no stored token;
 * - the trigger with Include Contact Profile after a burst of 2,000 events from 2,000 contacts;
 * - listing: Return All of 25,000 contacts with a warm token against a bare undici loop over the same pages.
 * Time, requests, 429s, logins and failed items are reported; only counts that prove correctness are asserted.
 */
import http from 'node:http';
import path from 'node:path';
import type { IDataObject, INodeParameters, INodeType } from 'n8n-workflow';
import { request } from 'undici';

import { actionWorkflow, node, TRIGGER_TYPE } from '../test/harness/cloud4wi';
import type { CredentialStore } from '../test/harness/engine';
import { buildWorkflow, pollOnce, registerNodeType, runWorkflow } from '../test/harness/engine';
import { httpRequestOptInParams } from './support/http-node';
import { measure, median, medianRun, printTable, round, writeResults } from './support/measure';
import type { RemoteSandbox } from './support/remote';
import { startRemoteCloud4Wi } from './support/remote';

const N = 1000;
const LATENCY_MS = 40;
const LIMIT = 16;
const FLOOR_MS = (N * LATENCY_MS) / LIMIT;
/** The sandbox's Retry-After: the pause a first run pays to find the limit. */
const RETRY_AFTER_S = 1;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const HTTP_NODE = 'n8n-nodes-base.httpRequest';

/** n8n's HTTP Request node (4.2), from the n8n that scripts/n8n-lib.sh installs; undefined when it is not installed. */
function loadHttpRequestNode(): INodeType | undefined {
	const file = path.join(
		__dirname,
		'..',
		'.tools/n8n/node_modules/n8n-nodes-base/dist/nodes/HttpRequest/HttpRequest.node.js',
	);
	try {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { HttpRequest } = require(file) as { HttpRequest: new () => { nodeVersions: Record<number, INodeType> } };
		return new HttpRequest().nodeVersions[4.2];
	} catch {
		return undefined;
	}
}
const httpRequestNode = process.env.BENCH_OURS_ONLY ? undefined : loadHttpRequestNode();
if (httpRequestNode) registerNodeType(HTTP_NODE, httpRequestNode);

const optInParams: INodeParameters = {
	resource: 'contact',
	operation: 'updateOptIns',
	contactId: '={{ $json.id }}',
	optIns: { optIn: [{ policy: 'mktgCommunications', accepted: '={{ $json.accepted }}' }] },
};

/** The same PUT through n8n's HTTP Request node, all items at once (its default), each failure an item. */
function httpRequestWorkflow(sb: RemoteSandbox, token: string, items: IDataObject[]) {
	const params = httpRequestOptInParams(sb.url, token, '$json.id', '$json.accepted');
	return buildWorkflow({
		nodes: [
			node('Start', 'test.startItems', { items: JSON.stringify(items) }),
			{ ...node('Cloud4Wi', HTTP_NODE, params), typeVersion: 4.2, onError: 'continueRegularOutput' },
			node('Done', 'test.noOp', {}),
		],
		connections: {
			Start: { main: [[{ node: 'Cloud4Wi', type: 'main', index: 0 }]] },
			Cloud4Wi: { main: [[{ node: 'Done', type: 'main', index: 0 }]] },
		},
	});
}

interface Row {
	case: string;
	node: string;
	ms: number;
	requests: number;
	rateLimited: number;
	logins: number;
	failedItems: number;
	appliedOnce: string;
	vsHttpNode: string;
	vsFloor: string;
	heapKbPerItem: number;
}

const rows: Row[] = [];

async function counts(sb: RemoteSandbox) {
	const requests = await sb.requests();
	const applied = new Map<string, number>();
	for (const r of requests) {
		const m = /^\/v1\/customers\/([^/]+)\/policies$/.exec(r.path);
		if (r.method === 'PUT' && m && r.status >= 200 && r.status < 300) applied.set(m[1], (applied.get(m[1]) ?? 0) + 1);
	}
	return {
		requests: requests.filter((r) => !r.path.startsWith('/v1/sts/login')).length,
		rateLimited: requests.filter((r) => r.status === 429).length,
		logins: requests.filter((r) => r.path.startsWith('/v1/sts/login') && r.status === 200).length,
		applied,
	};
}

/** What the sandbox does during the measured run: an in-flight limit, another answer time. */
type Load = { maxInFlight?: number; latencyMs?: number };

type Build = (
	sb: RemoteSandbox,
	store: CredentialStore,
	token: string,
	ids: string[],
) => ReturnType<typeof buildWorkflow>;
interface Options {
	writes?: boolean;
	warm?: boolean;
	/** Run the workflow once before the measured run, as an earlier execution in the same n8n: the limiter has learned. */
	learned?: boolean;
	before?: (sb: RemoteSandbox) => Promise<void>;
}
interface Run {
	ms: number;
	heapDeltaMb: number;
	failed: number;
	c: Awaited<ReturnType<typeof counts>>;
}

/** One run on a fresh sandbox (a new account, so the limiter starts cold). */
async function runOnce(name: string, load: Load, build: Build, options: Options): Promise<Run> {
	const { sb, store } = await startRemoteCloud4Wi({ contacts: N, latencyMs: LATENCY_MS, retryAfterS: RETRY_AFTER_S });
	try {
		if (options.warm !== false) {
			await runWorkflow(
				buildWorkflow(actionWorkflow({ resource: 'segment', operation: 'getAll', returnAll: true })),
				store,
			);
		}
		const token = String(store.stored('cred-1').sessionToken);
		const workflow = build(sb, store, token, await sb.cids());
		await sb.setLoad(load);
		if (options.learned) await runWorkflow(workflow, store);
		await sb.clearRequests();
		await options.before?.(sb);
		const run = await measure(() => runWorkflow(workflow, store));
		const output = run.value.output('Cloud4Wi');
		if (output.length !== N) throw new Error(`${name}: ${output.length} items, expected ${N}`);
		const failed = output.filter((item) => item.json.error !== undefined).length + (run.value.error ? N : 0);
		const c = await counts(sb);
		if (process.env.BENCH_VERBOSE)
			process.stderr.write(`run: ${name}, ${Math.round(run.ms)} ms, ${c.rateLimited} 429s\n`);
		return { ms: run.ms, heapDeltaMb: run.peakHeapDeltaMb, failed, c };
	} finally {
		await sb.close();
	}
}

/**
 * One PUT the way n8n's request helper sends it: node:http with a new Agent, so a new connection, per request (undici
 * with `reset` also opens one per request but waits for each close: ~10 % slower than both).
 */
function putOnNewConnection(url: string, headers: Record<string, string>, body: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const req = http.request(url, { method: 'PUT', agent: new http.Agent(), headers }, (res) => {
			res.resume();
			res.on('end', () => resolve(res.statusCode ?? 0));
		});
		req.on('error', reject);
		req.end(body);
	});
}

/**
 * 1,000 PUTs from LIMIT workers that know the limit, one after another each: no 429 to learn from. Over undici's
 * keep-alive connections, or with a new connection per request as n8n's helper makes them.
 */
async function bareOnce(connections: 'keep-alive' | 'new' = 'keep-alive'): Promise<Run> {
	const { sb, store } = await startRemoteCloud4Wi({ contacts: N, latencyMs: LATENCY_MS, retryAfterS: RETRY_AFTER_S });
	try {
		await runWorkflow(
			buildWorkflow(actionWorkflow({ resource: 'segment', operation: 'getAll', returnAll: true })),
			store,
		);
		const token = String(store.stored('cred-1').sessionToken);
		const ids = await sb.cids();
		await sb.setLoad({ maxInFlight: LIMIT });
		await sb.clearRequests();
		const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
		let next = 0;
		let failed = 0;
		const worker = async () => {
			while (next < ids.length) {
				const i = next++;
				const url = `${sb.url}/v1/customers/${ids[i]}/policies`;
				const body = JSON.stringify({ policies: [{ policyKey: 'mktgCommunications', accepted: i % 2 === 0 }] });
				let status: number;
				if (connections === 'new') status = await putOnNewConnection(url, headers, body);
				else {
					const answer = await request(url, { method: 'PUT', headers, body });
					await answer.body.text();
					status = answer.statusCode;
				}
				if (status >= 300) failed++;
			}
		};
		const run = await measure(() => Promise.all(Array.from({ length: LIMIT }, worker)));
		return { ms: run.ms, heapDeltaMb: run.peakHeapDeltaMb, failed, c: await counts(sb) };
	} finally {
		await sb.close();
	}
}

/** The median run as a table row. */
function summarize(name: string, nodeName: string, runs: Run[], options: Options): Row {
	const mid = medianRun(runs);
	const once = (r: Run) => r.c.applied.size === N && [...r.c.applied.values()].every((n) => n === 1);
	const row: Row = {
		case: name,
		node: nodeName,
		ms: Math.round(mid.ms),
		requests: mid.c.requests,
		rateLimited: mid.c.rateLimited,
		logins: mid.c.logins,
		failedItems: mid.failed,
		appliedOnce: options.writes ? (runs.every(once) ? 'yes' : 'no') : '-',
		vsHttpNode: '-',
		vsFloor: '-',
		heapKbPerItem: round((Math.max(...runs.map((r) => r.heapDeltaMb)) * 1024) / N, 1),
	};
	rows.push(row);
	return row;
}

async function bulkCase(name: string, load: Load, build: Build, options: Options = {}, runs = RUNS) {
	const done: Run[] = [];
	for (let i = 0; i < runs; i++) done.push(await runOnce(name, load, build, options));
	return summarize(name, 'Cloud4Wi', done, options);
}

/** Our node and the HTTP Request node, run by turns so that load on the machine falls on both alike. */
async function compare(name: string, load: Load, build: Build) {
	const mine: Run[] = [];
	const theirs: Run[] = [];
	for (let i = 0; i < RUNS; i++) {
		mine.push(await runOnce(name, load, build, { writes: true }));
		if (httpRequestNode) theirs.push(await runOnce(name, load, httpRequestBuild, { writes: true }));
	}
	const our = summarize(name, 'Cloud4Wi', mine, { writes: true });
	const http = httpRequestNode ? summarize(name, 'HTTP Request', theirs, { writes: true }) : undefined;
	if (http) our.vsHttpNode = `${round(our.ms / http.ms, 2)}x`;
	return { our, http };
}

const ours = (params: INodeParameters) => (_sb: RemoteSandbox, _s: CredentialStore, _t: string, ids: string[]) =>
	buildWorkflow(
		actionWorkflow(
			params,
			ids.map((id, i) => ({ id, accepted: i % 2 === 0 })),
		),
	);
const httpRequestBuild = (sb: RemoteSandbox, _s: CredentialStore, token: string, ids: string[]) =>
	httpRequestWorkflow(
		sb,
		token,
		ids.map((id, i) => ({ id, accepted: i % 2 === 0 })),
	);

afterAll(() => {
	printTable(
		`Bulk runs: ${N} items, ${LATENCY_MS} ms answers (median of ${RUNS})`,
		rows as unknown as Array<Record<string, string | number>>,
	);
	writeResults('bulk', rows);
});

/** The first-run bound of the limit case: a bare client with a new connection per request, plus the one pause. */
let boundMs = 0;

describe('bulk', () => {
	test('Update Opt-Ins, no limit: our node and the HTTP Request node', async () => {
		await compare('opt-ins, no limit', {}, ours(optInParams));
	});

	test('Update Opt-Ins, no limit, a Cloud4Wi 300 ms away: our node and the HTTP Request node', async () => {
		await compare('opt-ins, no limit, 300 ms', { latencyMs: 300 }, ours(optInParams));
	});
	test('Update Opt-Ins, no limit, a Cloud4Wi 1 s away: our node and the HTTP Request node', async () => {
		await compare('opt-ins, no limit, 1 s', { latencyMs: 1000 }, ours(optInParams));
	});

	test(`Update Opt-Ins, ${LIMIT} in flight at most: our node and the HTTP Request node`, async () => {
		const { our, http } = await compare(`opt-ins, limit ${LIMIT}`, { maxInFlight: LIMIT }, ours(optInParams));
		our.vsFloor = `${round(our.ms / FLOOR_MS, 2)}x`;
		if (http) http.vsFloor = `${round(http.ms / FLOOR_MS, 2)}x`;
		expect(our.failedItems).toBe(0);
		expect(our.appliedOnce).toBe('yes');
		// The references: what a client that already knows the limit gets from this sandbox (no discovery, no n8n), with
		// keep-alive, and with a new connection per request as n8n's helper opens them. A first run adds the 1 s pause of
		// the 429 that finds the limit (the rule): the least any node on n8n's helper can take then.
		const bare: Run[] = [];
		const fresh: Run[] = [];
		for (let i = 0; i < RUNS; i++) {
			bare.push(await bareOnce());
			fresh.push(await bareOnce('new'));
		}
		const reference = summarize(`opt-ins, limit ${LIMIT}, ${LIMIT} workers`, 'bare undici', bare, { writes: true });
		reference.vsFloor = `${round(reference.ms / FLOOR_MS, 2)}x`;
		const helperLike = summarize(
			`opt-ins, limit ${LIMIT}, ${LIMIT} workers, a new connection each`,
			'bare node:http',
			fresh,
			{
				writes: true,
			},
		);
		const withPause = helperLike.ms + RETRY_AFTER_S * 1000;
		helperLike.vsFloor = `${round(helperLike.ms / FLOOR_MS, 2)}x (+${RETRY_AFTER_S} s pause: ${round(withPause / FLOOR_MS, 2)}x)`;
		boundMs = withPause;
		our.vsFloor += ` (${round(our.ms / boundMs, 2)}x the bound)`;
	});

	test(`Update Opt-Ins, ${LIMIT} in flight at most, 429s as slow as answers and holding a place`, async () => {
		// A service whose refusal takes as long as an answer and counts in flight meanwhile (issue 28's model).
		const load = { maxInFlight: LIMIT, slowRefusals: true };
		const slow = await bulkCase(`opt-ins, limit ${LIMIT}, slow 429s`, load, ours(optInParams), { writes: true });
		slow.vsFloor = `${round(slow.ms / FLOOR_MS, 2)}x` + (boundMs ? ` (${round(slow.ms / boundMs, 2)}x the bound)` : '');
		expect(slow.failedItems).toBe(0);
		expect(slow.appliedOnce).toBe('yes');
	});

	test(`Update Opt-Ins, ${LIMIT} in flight at most, a second run in the same n8n (the limit learned by the first)`, async () => {
		const second = await bulkCase(`opt-ins, limit ${LIMIT}, second run`, { maxInFlight: LIMIT }, ours(optInParams), {
			writes: true,
			learned: true,
		});
		second.vsFloor = `${round(second.ms / FLOOR_MS, 2)}x`;
		expect(second.failedItems).toBe(0);
		expect(second.appliedOnce).toBe('yes');
		expect(second.rateLimited).toBe(0);
	});

	test('Update Opt-Ins one at a time (Max Concurrent Requests 1), as the node ran before', async () => {
		const sequential = await bulkCase(
			'opt-ins, one at a time (before)',
			{},
			ours({ ...optInParams, requestOptions: { maxConcurrentRequests: 1 } }),
			{ writes: true },
			1,
		);
		sequential.vsFloor = `${round(sequential.ms / (N * LATENCY_MS), 2)}x N x latency`;
	});

	test('Get contact', async () => {
		await bulkCase('get contact', {}, ours({ resource: 'contact', operation: 'get', contactId: '={{ $json.id }}' }));
	});

	test('a token that expires mid-run, and a first run with no stored token: one login each', async () => {
		const expiry = await bulkCase(`opt-ins, token expires, limit ${LIMIT}`, { maxInFlight: LIMIT }, ours(optInParams), {
			writes: true,
			before: (sb) => sb.addFault({ method: 'PUT', expireTokens: true, skip: 300 }),
		});
		expect(expiry.logins).toBe(1);
		expect(expiry.failedItems).toBe(0);
		const first = await bulkCase('opt-ins, first run (no token)', {}, ours(optInParams), { writes: true, warm: false });
		expect(first.logins).toBe(1);
	});
});

describe('trigger with Include Contact Profile', () => {
	test('one poll after a burst of 2,000 events from 2,000 contacts', async () => {
		const { sb, store } = await startRemoteCloud4Wi({ contacts: 2000, latencyMs: LATENCY_MS });
		try {
			const workflow = buildWorkflow({
				nodes: [
					node('Trigger', TRIGGER_TYPE, { events: ['signup'], options: { includeContact: true } }),
					node('Done', 'test.noOp', {}),
				],
				connections: { Trigger: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
			});
			await pollOnce(workflow, store, 'Trigger'); // activation
			const now = await sb.now();
			await sb.inject(2000, ['signup'], now + 1000, 1, true);
			await sb.advance(60_000);
			await sb.clearRequests();
			const run = await measure(() => pollOnce(workflow, store, 'Trigger'));
			const emitted = run.value.emitted ?? [];
			expect(emitted).toHaveLength(2000);
			expect(emitted.every((i) => i.json.contact && typeof i.json.contact === 'object')).toBe(true);
			const c = await counts(sb);
			rows.push({
				case: 'trigger, 2,000 events + profiles',
				node: 'Cloud4Wi Trigger',
				ms: Math.round(run.ms),
				requests: c.requests,
				rateLimited: c.rateLimited,
				logins: c.logins,
				failedItems: 0,
				appliedOnce: '-',
				vsHttpNode: '-',
				vsFloor: `sequential would be ${(2000 * LATENCY_MS) / 1000} s`,
				heapKbPerItem: round((run.peakHeapDeltaMb * 1024) / 2000, 1),
			});
		} finally {
			await sb.close();
		}
	});
});

describe('listing', () => {
	test('Return All of 25,000 contacts with a warm token, against a bare undici loop over the same pages', async () => {
		const { sb, store } = await startRemoteCloud4Wi({ contacts: 25_000 });
		try {
			const workflow = buildWorkflow(actionWorkflow({ resource: 'contact', operation: 'getAll', returnAll: true }));
			await runWorkflow(workflow, store); // warm: token and the sandbox's page cache
			const token = String(store.stored('cred-1').sessionToken);
			const bare = async () => {
				let sid: string | undefined;
				let records = 0;
				for (;;) {
					const qs = new URLSearchParams({ size: '10000', ...(sid ? { sid } : {}) });
					const { body } = await request(`${sb.url}/v2/customers/organizations/${sb.organizationId}?${qs}`, {
						headers: { authorization: `Bearer ${token}` },
					});
					const page = (await body.json()) as { customers: unknown[]; sId?: string };
					records += page.customers.length;
					sid = page.sId;
					if (page.customers.length < 10_000 || !sid) return records;
				}
			};
			const node: number[] = [];
			const loop: number[] = [];
			for (let i = 0; i < 5; i++) {
				// Alternate, so load on the machine hits both alike.
				let t = performance.now();
				const run = await runWorkflow(workflow, store);
				node.push(performance.now() - t);
				expect(run.output('Cloud4Wi')).toHaveLength(25_000);
				t = performance.now();
				expect(await bare()).toBe(25_000);
				loop.push(performance.now() - t);
			}
			rows.push({
				case: 'Return All 25,000 contacts',
				node: 'Cloud4Wi',
				ms: Math.round(median(node)),
				requests: 3,
				rateLimited: 0,
				logins: 0,
				failedItems: 0,
				appliedOnce: '-',
				vsHttpNode: `bare undici ${Math.round(median(loop))} ms`,
				vsFloor: `${round(median(node) / median(loop), 2)}x undici`,
				heapKbPerItem: 0,
			});
		} finally {
			await sb.close();
		}
	});
});
