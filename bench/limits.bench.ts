/**
 * The adaptive limiter against limits of other shapes than bulk.bench.ts's 16 in flight (the vendor publishes no
 * numbers, so the node must find any of them): other in-flight limits, answers that take a random time, a
 * requests-per-second window, and 429s with other Retry-After values. 1,000 Update Opt-Ins items (5,000 for the wider
 * windows, so that they fill), 40 ms answers, a cold limiter each run (a new account).
 * Reported: time, the floor (what a client that knows the limit needs at best), 429s, pauses, the limit each run left for
 * the next (a misreading under the service's limit lasts 10 minutes; over it, one more pause), failed items, and
 * whether every opt-in was applied exactly once; only the counts that prove correctness are asserted.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Learned } from '../nodes/Cloud4Wi/shared/limiter';

import { actionWorkflow, pausesOf } from '../test/harness/cloud4wi';
import type { SandboxLoad } from '../test/sandbox';
import { buildWorkflow, runWorkflow } from '../test/harness/engine';
import { learnedText, measure, medianRun, printTable, round, writeResults } from './support/measure';
import { noLimit, startRemoteCloud4Wi } from './support/remote';

const N = 1000;
const LARGE_N = 5000;
const LATENCY_MS = 40;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const optIns: INodeParameters = {
	resource: 'contact',
	operation: 'updateOptIns',
	contactId: '={{ $json.id }}',
	optIns: { optIn: [{ policy: 'mktgCommunications', accepted: '={{ $json.accepted }}' }] },
};

type Load = Partial<SandboxLoad>;
interface Run {
	ms: number;
	rateLimited: number;
	/** Congestions: 429s more than half a second after the one before (each costs a Retry-After pause). */
	pauses: number;
	failed: number;
	appliedOnce: boolean;
	/** What the run left in the workflow for the next: the limit in flight, or the rate it paces at ('-': nothing). */
	learned: string;
}
const rows: Array<Record<string, string | number>> = [];

async function runOnce(load: Load, n: number): Promise<Run> {
	const { sb, store } = await startRemoteCloud4Wi({ contacts: n, latencyMs: LATENCY_MS });
	try {
		// A stored token first: the run measured is the bulk work, not the login.
		await runWorkflow(
			buildWorkflow(actionWorkflow({ resource: 'segment', operation: 'getAll', returnAll: true })),
			store,
		);
		const ids = await sb.cids();
		const workflow = buildWorkflow(
			actionWorkflow(
				optIns,
				ids.map((id, i) => ({ id, accepted: i % 2 === 0 })),
			),
		);
		await sb.setLoad({ ...noLimit(LATENCY_MS), ...load });
		await sb.clearRequests();
		const run = await measure(() => runWorkflow(workflow, store));
		const output = run.value.output('Cloud4Wi');
		const requests = await sb.requests();
		const applied = new Map<string, number>();
		for (const r of requests) {
			const m = /^\/v1\/customers\/([^/]+)\/policies$/.exec(r.path);
			if (m && r.status === 200) applied.set(m[1], (applied.get(m[1]) ?? 0) + 1);
		}
		const limits = (workflow.staticData.global as IDataObject | undefined)?.cloud4WiLimits;
		const [kept] = Object.values((limits ?? {}) as Record<string, Learned>);
		return {
			learned: learnedText(kept),
			ms: run.ms,
			rateLimited: requests.filter((r) => r.status === 429).length,
			pauses: pausesOf(requests),
			failed: output.filter((item) => item.json.error !== undefined).length + (run.value.error ? n : 0),
			appliedOnce: applied.size === n && [...applied.values()].every((n) => n === 1),
		};
	} finally {
		await sb.close();
	}
}

async function limitCase(name: string, load: Load, floorMs: number, n = N) {
	const runs: Run[] = [];
	for (let i = 0; i < RUNS; i++) runs.push(await runOnce(load, n));
	const mid = medianRun(runs);
	rows.push({
		case: name,
		ms: Math.round(mid.ms),
		floorMs: Math.round(floorMs),
		vsFloor: `${round(mid.ms / floorMs, 2)}x`,
		rateLimited: mid.rateLimited,
		pauses: runs.map((r) => r.pauses).join(' '),
		learned: runs.map((r) => r.learned).join(' '),
		failedItems: mid.failed,
		appliedOnce: runs.every((r) => r.appliedOnce) ? 'yes' : 'no',
	});
	expect(runs.every((r) => r.failed === 0)).toBe(true);
	expect(runs.every((r) => r.appliedOnce)).toBe(true);
}

afterAll(() => {
	printTable(`Limits of other shapes: ${N} opt-in items, ${LATENCY_MS} ms answers (median of ${RUNS})`, rows);
	writeResults('limits', rows);
});

describe('limits of other shapes', () => {
	for (const limit of [4, 8, 16, 32]) {
		test(`${limit} in flight, Retry-After 1`, async () => {
			await limitCase(`${limit} in flight`, { maxInFlight: limit }, (N * LATENCY_MS) / limit);
		});
	}
	test('16 in flight, answers 300 ms away', async () => {
		// Slow answers: the climb also grows by time (no answer for 100 ms doubles the level), so the limit is met early.
		await limitCase('16 in flight, 300 ms answers', { maxInFlight: 16, latencyMs: 300 }, (N * 300) / 16);
	});
	for (const limit of [16, 32]) {
		test(`${limit} in flight, answers 40-80 ms away`, async () => {
			// Answers out of the order they were sent in, as from a real service: the floor is at the mean, 60 ms.
			const load = { maxInFlight: limit, latencyMs: 40, latencyJitterMs: 40 };
			await limitCase(`${limit} in flight, 40-80 ms answers`, load, (N * 60) / limit);
		});
	}
	for (const limit of [16, 32]) {
		test(`${limit} in flight, 429s as slow as answers`, async () => {
			// A gateway that takes as long to refuse as to answer: each 429 comes back among the answers sent beside it.
			const load = { maxInFlight: limit, refusalLatencyMs: LATENCY_MS };
			await limitCase(`${limit} in flight, 429s after ${LATENCY_MS} ms`, load, (N * LATENCY_MS) / limit);
		});
	}
	for (const limit of [16, 32]) {
		test(`${limit} in flight, 429s as slow as answers and holding a place`, async () => {
			// Issue 28's model: a refusal takes as long as an answer and counts in flight meanwhile.
			const load = { maxInFlight: limit, slowRefusals: true };
			await limitCase(`${limit} in flight, slow 429s holding a place`, load, (N * LATENCY_MS) / limit);
		});
	}
	test('16 in flight, Retry-After 0', async () => {
		await limitCase('16 in flight, Retry-After 0', { maxInFlight: 16, retryAfterS: 0 }, (N * LATENCY_MS) / 16);
	});
	for (const perSecond of [100, 250]) {
		test(`${perSecond} requests a second (sliding window), Retry-After 1`, async () => {
			// A window that starts full: the first second's requests are free, then perSecond a second.
			await limitCase(`${perSecond} a second`, { maxPerSecond: perSecond }, ((N - perSecond) / perSecond) * 1000);
		});
	}
	// A few a second: under one request in flight at 40 ms answers, so that only paced starts keep under it.
	test('20 requests a second, 300 items', async () => {
		await limitCase('20 a second, 300 items', { maxPerSecond: 20 }, ((300 - 20) / 20) * 1000, 300);
	});
	// A window far above what half the start level serves (8 in flight at 40 ms: 200 a second), over enough items to fill it.
	for (const perSecond of [500, 1000]) {
		test(`${perSecond} requests a second, ${LARGE_N} items`, async () => {
			const floorMs = ((LARGE_N - perSecond) / perSecond) * 1000;
			await limitCase(`${perSecond} a second, ${LARGE_N} items`, { maxPerSecond: perSecond }, floorMs, LARGE_N);
		});
	}
});
