/**
 * Bulk opt-ins in a real n8n 2.40.7 (`n8n execute`, a new process per run, the workflow re-imported before each so no
 * limit learned earlier is in its static data: the limiter starts cold), against the
 * sandbox in its own process answering in 40 ms: our node and n8n's HTTP Request node, 1,000 PUTs each, with no limit
 * and with 16 in flight at most (429 + Retry-After: 1 above it). Then the 16-in-flight runs in one running n8n
 * (`n8n start`, runs started as the editor's Execute button does), where later runs find the limiter warm. Time is
 * the node's own executionTime from n8n's run data. Last, limits of other shapes (4 and 32 in flight, 100 and 250
 * requests a second), each run cold, with the pauses each costs. Needs n8n installed (scripts/e2e-n8n.sh) and the
 * package built; about 7 minutes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { nodeRun, parseExecuteOutput, runFromEditor } from '../e2e/execute-output';
import type { Json } from '../e2e/execute-output';
import type { N8n, Sandbox } from '../e2e/fixtures';
import { N8N_VERSIONS, prepareN8n, sandboxToken, startSandbox, workDir } from '../e2e/fixtures';
import type { Learned } from '../nodes/Cloud4Wi/shared/limiter';
import { pausesOf } from '../test/harness/cloud4wi';
import type { SandboxLoad } from '../test/sandbox';
import { httpRequestOptInParams } from './support/http-node';
import { learnedText, medianRun, printTable, round, writeResults } from './support/measure';
import { noLimit } from './support/remote';

const N = 1000;
const LATENCY_MS = 40;
const LIMIT = 16;
const FLOOR_MS = (N * LATENCY_MS) / LIMIT;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CREDENTIAL = { id: 'c4wBenchCred0001', name: 'Cloud4Wi sandbox (bench)' };
const HTTP_WORKFLOW_ID = 'c4wBenchHttp0001';
/** Without an installed n8n (scripts/e2e-n8n.sh installs it) this bench is skipped. */
const installed = existsSync(join(N8N_VERSIONS.current.home, 'node_modules', '.bin', 'n8n'));
const maybe = installed ? describe : describe.skip;

const list = {
	id: 'b-list',
	name: 'Contacts',
	type: 'n8n-nodes-cloud4wi.cloud4Wi',
	typeVersion: 1,
	position: [240, 0],
	// Simplified: n8n execute prints the whole run, parsed from its output; full records made it 2 MB.
	parameters: { resource: 'contact', operation: 'getAll', returnAll: true, simplify: true },
	credentials: { cloud4WiApi: CREDENTIAL },
};

/** Manual Trigger -> all contacts (one request) -> 1,000 opt-in PUTs in the node named "Cloud4Wi". */
function workflow(id: string, bulk: Json) {
	return {
		id,
		name: id,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: 'b-start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			list,
			{ id: 'b-bulk', name: 'Cloud4Wi', position: [480, 0], onError: 'continueRegularOutput', ...bulk },
		],
		connections: {
			Start: { main: [[{ node: 'Contacts', type: 'main', index: 0 }]] },
			Contacts: { main: [[{ node: 'Cloud4Wi', type: 'main', index: 0 }]] },
		},
	};
}

const ours = workflow('c4wBenchOurs0001', {
	type: 'n8n-nodes-cloud4wi.cloud4Wi',
	typeVersion: 1,
	credentials: { cloud4WiApi: CREDENTIAL },
	parameters: {
		resource: 'contact',
		operation: 'updateOptIns',
		contactId: '={{ $json.id }}',
		optIns: { optIn: [{ policy: 'mktgCommunications', accepted: '={{ $itemIndex % 2 === 0 }}' }] },
	},
});

function httpNode(sandbox: Sandbox, token: string) {
	return workflow(HTTP_WORKFLOW_ID, {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: httpRequestOptInParams(sandbox.url, token, '$json.id', '$itemIndex % 2 === 0'),
	});
}

interface Row {
	case: string;
	node: string;
	ms: number;
	runs: string;
	requests: number;
	rateLimited: number;
	failedItems: number;
	appliedOnce: string;
	vsHttpNode: string;
	vsFloor: string;
	/** The in-flight level the first run stored as refused (the limit + 1: 17 here), for the runs that start from it. */
	learned: string;
	/** Congestions of each run: 429s more than half a second after the one before, each costing a Retry-After pause. */
	pauses: string;
}
const rows: Row[] = [];
/** The sandbox's limit for a run (0: none), as in limits.bench. */
type Load = Partial<SandboxLoad>;

let sandbox: Sandbox;
let n8n: N8n;
let token = '';
let oursFile = '';
let benchDir = '';

maybe('in a real n8n 2.40.7', () => {
	beforeAll(async () => {
		const dir = workDir('bench-real-n8n');
		benchDir = dir;
		sandbox = await startSandbox(dir, ['--contacts', String(N), '--retry-after', '1']);
		n8n = await prepareN8n('current', dir);
		await n8n.importCredential(sandbox, CREDENTIAL.id, CREDENTIAL.name);
		token = await sandboxToken(sandbox.url, sandbox.credentials);
		const file = join(dir, 'workflows.json');
		writeFileSync(file, JSON.stringify([ours, httpNode(sandbox, token)]));
		const imported = await n8n.cli(['import:workflow', `--input=${file}`]);
		if (imported.code !== 0) throw new Error(`import failed:\n${imported.stdout}${imported.stderr}`);
		oursFile = join(dir, 'ours.json');
		writeFileSync(oursFile, JSON.stringify([{ ...ours, staticData: null }]));
	}, 600_000);

	/** Our workflow as first imported: no limit learned by an earlier execution in its static data, so a run is cold. */
	async function forgetLearnedLimit() {
		const imported = await n8n.cli(['import:workflow', `--input=${oursFile}`]);
		if (imported.code !== 0) throw new Error(`import failed:\n${imported.stdout}${imported.stderr}`);
	}

	/** The limit our workflow's static data holds, as the last execution left it: in flight, or a rate ('-': none). */
	async function storedLimit(): Promise<string> {
		const file = join(benchDir, 'exported.json');
		const exported = await n8n.cli(['export:workflow', `--id=${ours.id}`, `--output=${file}`]);
		if (exported.code !== 0) throw new Error(`export failed:\n${exported.stdout}${exported.stderr}`);
		const [saved] = JSON.parse(readFileSync(file, 'utf8')) as Json[];
		const kept = (saved.staticData?.global?.cloud4WiLimits as Record<string, Learned> | undefined)?.[CREDENTIAL.id];
		return learnedText(kept);
	}

	afterAll(async () => {
		await sandbox?.stop();
		printTable(
			`Bulk opt-ins in n8n 2.40.7: ${N} items, ${LATENCY_MS} ms answers (median of ${RUNS}, node execution time)`,
			rows as unknown as Array<Record<string, string | number>>,
		);
		writeResults('real-n8n', rows);
	}, 60_000);

	interface Run {
		ms: number;
		pauses: number;
		requests: number;
		rateLimited: number;
		failed: number;
		once: boolean;
		/** The limit a cold run left for the next ('-': not read). */
		learned?: string;
	}

	/** `n8n execute`: a new n8n process for this run alone. */
	async function executeCli(workflowId: string): Promise<Json> {
		const result = await n8n.cli(['execute', `--id=${workflowId}`, '--rawOutput'], 300_000);
		const { run, problem } = parseExecuteOutput(result.stdout);
		if (!run) throw new Error(`${workflowId}: ${problem}\n${result.stdout.slice(-2000)}${result.stderr.slice(-2000)}`);
		return run;
	}

	async function runOnce(workflowId: string, load: Load, execute = executeCli): Promise<Run> {
		// The list before the bulk node is one request: under any limit.
		await sandbox.admin('POST', '/__admin/load', { ...noLimit(LATENCY_MS), ...load });
		await sandbox.admin('DELETE', '/__admin/requests');
		const run = await execute(workflowId);
		const bulk = run.data.resultData.runData.Cloud4Wi[0];
		const items = nodeRun(run, 'Cloud4Wi').items;
		if (items.length !== N) throw new Error(`${workflowId}: ${items.length} items, expected ${N}`);
		const { requests } = await sandbox.admin<{ requests: Json[] }>('GET', '/__admin/requests');
		const puts = requests.filter((r: Json) => r.method === 'PUT');
		const applied = new Map<string, number>();
		for (const r of puts.filter((p: Json) => p.status >= 200 && p.status < 300)) {
			applied.set(r.path, (applied.get(r.path) ?? 0) + 1);
		}
		return {
			ms: bulk.executionTime,
			pauses: pausesOf(puts),
			requests: puts.length,
			rateLimited: puts.filter((r: Json) => r.status === 429).length,
			failed: items.filter((item: Json) => item.error !== undefined).length,
			once: applied.size === N && [...applied.values()].every((count) => count === 1),
		};
	}

	function summarize(name: string, node: string, runs: Run[]): Row {
		const mid = medianRun(runs);
		const row: Row = {
			case: name,
			node,
			ms: Math.round(mid.ms),
			runs: runs.map((r) => Math.round(r.ms)).join(' '),
			requests: mid.requests,
			rateLimited: mid.rateLimited,
			failedItems: mid.failed,
			appliedOnce: runs.every((r) => r.once) ? 'yes' : 'no',
			vsHttpNode: '-',
			vsFloor: '-',
			learned: runs.some((r) => r.learned) ? runs.map((r) => r.learned ?? '-').join(' ') : '-',
			pauses: runs.map((r) => r.pauses).join(' '),
		};
		rows.push(row);
		return row;
	}

	async function compare(name: string, load: Load) {
		const mine: Run[] = [];
		const theirs: Run[] = [];
		for (let i = 0; i < RUNS; i++) {
			await forgetLearnedLimit();
			mine.push({ ...(await runOnce(ours.id, load)), learned: await storedLimit() });
			if (!process.env.BENCH_OURS_ONLY) theirs.push(await runOnce(HTTP_WORKFLOW_ID, load));
		}
		const our = summarize(name, 'Cloud4Wi', mine);
		const http = theirs.length ? summarize(name, 'HTTP Request', theirs) : undefined;
		if (http) our.vsHttpNode = `${round(our.ms / http.ms, 2)}x`;
		return { our, http };
	}

	test('Update Opt-Ins, no limit: our node and the HTTP Request node', async () => {
		await compare('opt-ins, no limit', { maxInFlight: 0 });
	});

	test('Update Opt-Ins, no limit, a Cloud4Wi 1 s away: our node and the HTTP Request node', async () => {
		await compare('opt-ins, no limit, 1 s', { maxInFlight: 0, latencyMs: 1000 });
	});

	test(`Update Opt-Ins, ${LIMIT} in flight at most: our node and the HTTP Request node`, async () => {
		const { our, http } = await compare(`opt-ins, limit ${LIMIT}`, { maxInFlight: LIMIT });
		our.vsFloor = `${round(our.ms / FLOOR_MS, 2)}x`;
		if (http) http.vsFloor = `${round(http.ms / FLOOR_MS, 2)}x`;
		expect(our.failedItems).toBe(0);
		expect(our.appliedOnce).toBe('yes');
	});

	test(`Update Opt-Ins, ${LIMIT} in flight at most, 429s as slow as answers and holding a place`, async () => {
		// Issue 28's service: a refusal takes as long as an answer and counts in flight meanwhile.
		const slow = { maxInFlight: LIMIT, slowRefusals: true };
		const { our, http } = await compare(`opt-ins, limit ${LIMIT}, slow 429s holding a place`, slow);
		our.vsFloor = `${round(our.ms / FLOOR_MS, 2)}x`;
		if (http) http.vsFloor = `${round(http.ms / FLOOR_MS, 2)}x`;
		expect(our.failedItems).toBe(0);
		expect(our.appliedOnce).toBe('yes');
	});

	test(`Update Opt-Ins, ${LIMIT} in flight at most, \`n8n execute\` after an execution that found the limit`, async () => {
		await forgetLearnedLimit();
		await runOnce(ours.id, { maxInFlight: LIMIT }); // finds the limit and keeps it in the workflow's static data
		const learned = await storedLimit();
		const later: Run[] = [];
		for (let i = 0; i < RUNS; i++) later.push(await runOnce(ours.id, { maxInFlight: LIMIT }));
		const row = summarize(`opt-ins, limit ${LIMIT}, n8n execute, limit known`, 'Cloud4Wi', later);
		row.learned = learned;
		row.vsFloor = `${round(row.ms / FLOOR_MS, 2)}x`;
		expect(row.failedItems).toBe(0);
		expect(row.appliedOnce).toBe('yes');
		expect(row.rateLimited).toBe(0); // each a new process, starting where the stored limit says
	}, 600_000);

	test(`Update Opt-Ins, ${LIMIT} in flight at most, in one running n8n: its first run, then the next ones`, async () => {
		await forgetLearnedLimit();
		await n8n.start();
		try {
			await n8n.setupOwner();
			const fromEditor = async (workflowId: string) => (await runFromEditor(n8n, workflowId, 'Start', 300_000)).run;
			const first = await runOnce(ours.id, { maxInFlight: LIMIT }, fromEditor);
			const later: Run[] = [];
			for (let i = 0; i < RUNS; i++) later.push(await runOnce(ours.id, { maxInFlight: LIMIT }, fromEditor));
			const cold = summarize(`opt-ins, limit ${LIMIT}, n8n start: 1st run`, 'Cloud4Wi', [first]);
			const warm = summarize(`opt-ins, limit ${LIMIT}, n8n start: next runs`, 'Cloud4Wi', later);
			for (const row of [cold, warm]) row.vsFloor = `${round(row.ms / FLOOR_MS, 2)}x`;
			expect(cold.failedItems + warm.failedItems).toBe(0);
			expect(warm.appliedOnce).toBe('yes');
			expect(warm.rateLimited).toBe(0); // the level found by the first run
		} finally {
			await n8n.stop();
		}
	}, 600_000);

	test(`Update Opt-Ins in one running n8n: runs with no limit, then a ${LIMIT}-in-flight limit appears`, async () => {
		await forgetLearnedLimit();
		await n8n.start();
		try {
			await n8n.setupOwner();
			const fromEditor = async (workflowId: string) => (await runFromEditor(n8n, workflowId, 'Start', 300_000)).run;
			// Hundreds in flight at the end of these: the limiter's level with no 429 met.
			for (let i = 0; i < 2; i++) await runOnce(ours.id, { maxInFlight: 0 }, fromEditor);
			const first = await runOnce(ours.id, { maxInFlight: LIMIT }, fromEditor);
			const row = summarize(`opt-ins, limit ${LIMIT} after runs without one, n8n start`, 'Cloud4Wi', [first]);
			row.vsFloor = `${round(row.ms / FLOOR_MS, 2)}x`;
			expect(row.failedItems).toBe(0);
			expect(row.appliedOnce).toBe('yes');
		} finally {
			await n8n.stop();
		}
	}, 600_000);

	// Limits of other shapes, each run cold (a new process, nothing learned): what a user meets first in n8n.
	for (const [name, maxInFlight, maxPerSecond, floorMs] of [
		['4 in flight', 4, 0, (N * LATENCY_MS) / 4],
		['32 in flight', 32, 0, (N * LATENCY_MS) / 32],
		// A window that starts empty: the first second's requests are free, then that many a second.
		['100 a second', 0, 100, ((N - 100) / 100) * 1000],
		['250 a second', 0, 250, ((N - 250) / 250) * 1000],
		// A few a second: under one in flight at 40 ms answers.
		['20 a second', 0, 20, ((N - 20) / 20) * 1000],
	] as const) {
		test(`Update Opt-Ins, ${name}, \`n8n execute\`, cold`, async () => {
			const runs: Run[] = [];
			for (let i = 0; i < RUNS; i++) {
				await forgetLearnedLimit();
				runs.push({ ...(await runOnce(ours.id, { maxInFlight, maxPerSecond })), learned: await storedLimit() });
			}
			const row = summarize(`opt-ins, ${name}, n8n execute, cold`, 'Cloud4Wi', runs);
			row.vsFloor = `${round(row.ms / floorMs, 2)}x`;
			expect(row.failedItems).toBe(0);
			expect(row.appliedOnce).toBe('yes');
		}, 600_000);
	}
});
