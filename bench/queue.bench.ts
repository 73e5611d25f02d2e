/**
 * Queue mode: two n8n-like processes (each a jest process running the engine, bench/support/queue-worker.bench.ts),
 * each running two bulk executions at once on one credential, against one Cloud4Wi that serves 16 requests at once.
 * Each process has its own limiter; together they share the service's limit. Reported: the whole job's time against
 * the floor (all writes at 16 in flight) and against a bound measured in the same round (the same job with each
 * execution's Max Concurrent Requests at its even share, 4: no discovery, no 429), 429s, failed items, and whether
 * every write was applied exactly once.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { printTable, round, writeResults } from './support/measure';
import { startRemoteCloud4Wi } from './support/remote';

const WORKERS = 2;
const PER_EXECUTION = 500;
const N = WORKERS * 2 * PER_EXECUTION;
const LATENCY_MS = 40;
const LIMIT = 16;
const FLOOR_MS = (N * LATENCY_MS) / LIMIT;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** The second process starts this much later (ms), as queue workers pick executions up at different moments. */
const STAGGER_MS = Number(process.env.QUEUE_STAGGER_MS ?? 0);
const ROOT = path.join(__dirname, '..');

/** One worker process; resolves with its report once it exits. */
function worker(env: Record<string, string>): Promise<{ failed: number; endedAt: number }> {
	return new Promise((resolve, reject) => {
		const child = spawn(
			process.execPath,
			[path.join(ROOT, 'node_modules/.bin/jest'), '-c', 'bench/jest.config.js', 'bench/support/queue-worker.bench.ts'],
			{ cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] },
		);
		child.on('exit', (code) => {
			if (code !== 0) return reject(new Error(`queue worker exited with ${code}`));
			resolve(JSON.parse(readFileSync(env.QUEUE_REPORT, 'utf8')) as { failed: number; endedAt: number });
		});
	});
}

/** One whole job on a fresh service: both processes, each two executions; `share` caps each execution (the bound). */
async function job(share?: number) {
	const { sb } = await startRemoteCloud4Wi({ contacts: N, latencyMs: LATENCY_MS, maxInFlight: LIMIT });
	try {
		const ids = await sb.cids();
		const dir = mkdtempSync(path.join(tmpdir(), 'queue-'));
		// Both start at the same moment, once their engines are loaded.
		const startAt = Date.now() + 20_000;
		const reports = await Promise.all(
			Array.from({ length: WORKERS }, (_, w) => {
				const idsFile = path.join(dir, `ids-${w}.json`);
				writeFileSync(idsFile, JSON.stringify(ids.slice(w * 2 * PER_EXECUTION, (w + 1) * 2 * PER_EXECUTION)));
				return worker({
					QUEUE_URL: sb.url,
					QUEUE_CREDENTIALS: JSON.stringify(sb.credentials),
					QUEUE_IDS: idsFile,
					QUEUE_START_AT: String(startAt + w * STAGGER_MS),
					QUEUE_REPORT: path.join(dir, `report-${w}.json`),
					QUEUE_SHARE: share ? String(share) : '',
				});
			}),
		);
		const requests = await sb.requests();
		const applied = new Map<string, number>();
		for (const r of requests) {
			const m = /^\/v1\/customers\/([^/]+)\/policies$/.exec(r.path);
			if (m && r.status === 200) applied.set(m[1], (applied.get(m[1]) ?? 0) + 1);
		}
		return {
			ms: Math.max(...reports.map((r) => r.endedAt)) - startAt,
			failed: reports.reduce((sum, r) => sum + r.failed, 0),
			once: applied.size === N && [...applied.values()].every((n) => n === 1),
			rateLimited: requests.filter((r) => r.status === 429).length,
		};
	} finally {
		await sb.close();
	}
}

test(`queue mode: ${WORKERS} processes x 2 executions of ${PER_EXECUTION} writes, ${LIMIT} in flight at the service`, async () => {
	const rows: Array<Record<string, string | number>> = [];
	for (let run = 0; run < RUNS; run++) {
		const ours = await job();
		const bound = await job(LIMIT / (WORKERS * 2));
		rows.push({
			run,
			staggerMs: STAGGER_MS,
			ms: ours.ms,
			floorMs: FLOOR_MS,
			vsFloor: `${round(ours.ms / FLOOR_MS, 2)}x`,
			boundMs: bound.ms,
			vsBound: `${round(ours.ms / bound.ms, 2)}x`,
			rateLimited: ours.rateLimited,
			failedItems: ours.failed,
			appliedOnce: ours.once ? 'yes' : 'no',
		});
		for (const side of [ours, bound]) {
			expect(side.failed).toBe(0);
			expect(side.once).toBe(true);
		}
		expect(bound.rateLimited).toBe(0); // the even split never meets the limit: a bound, not a run of ours
	}
	printTable(`Queue mode: ${N} writes from ${WORKERS} processes x 2 executions, ${LATENCY_MS} ms answers`, rows);
	writeResults('queue', rows);
}, 900_000);
