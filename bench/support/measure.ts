/** Timing and memory of one run, the median of several, a readable table, and the results file. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

import type { Learned } from '../../nodes/Cloud4Wi/shared/limiter';

const MB = 1024 * 1024;
const SAMPLE_MS = 50;
/** Pause after the baseline GC before the clock starts. */
const SETTLE_MS = 100;
const loadAtStart = os.loadavg()[0];

/**
 * A full GC. `global.gc` when node runs with --expose-gc; jest's test sandbox does not always pass it through,
 * so otherwise the flag is set at run time and `gc` taken from a fresh context (V8 installs it there).
 */
function findGc(): (() => void) | undefined {
	const exposed = (globalThis as { gc?: () => void }).gc;
	if (typeof exposed === 'function') return exposed;
	v8.setFlagsFromString('--expose-gc');
	const fromContext = vm.runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined;
	return fromContext;
}
const gc = findGc();

export const gcAvailable = gc !== undefined;

export function collect(): void {
	gc?.();
}

export interface Memory {
	/** Largest RSS seen during the run, MB. */
	peakRssMb: number;
	/** Peak RSS minus RSS just before the run, MB. */
	rssDeltaMb: number;
	/** Largest heapUsed seen during the run minus heapUsed just before it (after a GC), MB. */
	peakHeapDeltaMb: number;
	/** heapUsed after the run and a GC, with the result still held, minus the baseline: what the result costs to keep, MB. */
	retainedHeapMb: number;
}

export interface Measured<T> extends Memory {
	value: T;
	/** Wall time, ms. */
	ms: number;
	/** CPU time of this process (user + system), ms: less sensitive than wall time to other load on the machine. */
	cpuMs: number;
	/** RSS and heapUsed just before the run (after a GC), MB: the bench process's own baseline (jest, TypeScript, n8n-core). */
	before: { rssMb: number; heapUsedMb: number };
}

/** Runs `fn` once, sampling process.memoryUsage() every 50 ms (the sampler only runs when the event loop is free). */
export async function measure<T>(fn: () => Promise<T>): Promise<Measured<T>> {
	collect();
	// The forced GC's aftermath (sweeping, finalizers) is not the run's: timed at once, it held back a run's first
	// requests by 30-70 ms (the first of 16 in flight refused at 62-110 ms instead of 28-42 ms), which no n8n does.
	await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
	const before = process.memoryUsage();
	let peakRss = before.rss;
	let peakHeap = before.heapUsed;
	const sample = () => {
		const now = process.memoryUsage();
		peakRss = Math.max(peakRss, now.rss);
		peakHeap = Math.max(peakHeap, now.heapUsed);
	};
	const timer = setInterval(sample, SAMPLE_MS);
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	let value: T;
	try {
		value = await fn();
	} finally {
		clearInterval(timer);
	}
	const ms = performance.now() - started;
	const cpu = process.cpuUsage(cpuBefore);
	sample();
	collect();
	const after = process.memoryUsage();
	return {
		value,
		ms,
		cpuMs: (cpu.user + cpu.system) / 1000,
		before: { rssMb: round(before.rss / MB), heapUsedMb: round(before.heapUsed / MB) },
		peakRssMb: round(peakRss / MB),
		rssDeltaMb: round((peakRss - before.rss) / MB),
		peakHeapDeltaMb: round((peakHeap - before.heapUsed) / MB),
		retainedHeapMb: round((after.heapUsed - before.heapUsed) / MB),
	};
}

/** Wall and CPU time of `fn`, without the GCs and memory sampling of measure(): for short, repeated runs. */
export async function time<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	const value = await fn();
	const ms = performance.now() - started;
	const cpu = process.cpuUsage(cpuBefore);
	return { value, ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The run whose time is the median (with an even count, the one nearest it): the row a table shows. */
export function medianRun<T extends { ms: number }>(runs: T[]): T {
	const middle = median(runs.map((r) => r.ms));
	return runs.reduce((a, b) => (Math.abs(b.ms - middle) < Math.abs(a.ms - middle) ? b : a));
}

/** The largest of each memory figure over several runs. */
export function worstMemory(runs: Memory[]): Memory {
	const max = (key: keyof Memory) => Math.max(...runs.map((r) => r[key]));
	return {
		peakRssMb: max('peakRssMb'),
		rssDeltaMb: max('rssDeltaMb'),
		peakHeapDeltaMb: max('peakHeapDeltaMb'),
		retainedHeapMb: max('retainedHeapMb'),
	};
}

export function round(value: number, digits = 1): number {
	const factor = 10 ** digits;
	return Math.round(value * factor) / factor;
}

/** What a run left in the workflow for the next, as the benches print it: the limit in flight, or the rate ('-': none). */
export function learnedText(kept: Learned | undefined): string {
	if (!kept) return '-';
	return kept.perSecond ? `${round(kept.perSecond, 0)}/s` : String(kept.refusedLevel - 1);
}

/** Prints rows as an aligned table (first row of keys as the header), straight to stdout so jest does not decorate it. */
export function printTable(title: string, rows: Array<Record<string, string | number>>): void {
	const columns = Object.keys(rows[0] ?? {});
	const cells = [columns, ...rows.map((row) => columns.map((c) => String(row[c])))];
	const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i].length)));
	const line = (values: string[]) =>
		values.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
	const text = [
		'',
		title,
		line(columns),
		widths.map((w) => '-'.repeat(w)).join('  '),
		...cells.slice(1).map(line),
		'',
	].join('\n');
	process.stdout.write(`${text}\n`);
}

/** The commit measured, `-dirty` when the working tree had changes (dist/ is built from it). */
function revision(): string {
	try {
		return execFileSync('git', ['describe', '--always', '--dirty'], {
			cwd: path.join(__dirname, '..', '..'),
			encoding: 'utf8',
		}).trim();
	} catch {
		return 'unknown';
	}
}

/** Writes bench/results/<name>.json with the machine it ran on. */
export function writeResults(name: string, results: unknown): string {
	const dir = path.join(__dirname, '..', 'results');
	mkdirSync(dir, { recursive: true });
	const file = path.join(dir, `${name}.json`);
	const machine = {
		date: new Date().toISOString(),
		revision: revision(),
		node: process.version,
		platform: `${os.platform()} ${os.arch()}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? '',
		totalMemoryMb: Math.round(os.totalmem() / MB),
		heapLimitMb: Math.round(v8.getHeapStatistics().heap_size_limit / MB),
		gcExposed: gcAvailable,
		/** 1-minute load averages when the bench started and ended: above the core count, other work competed for the CPU. */
		loadAverage1m: { start: round(loadAtStart, 2), end: round(os.loadavg()[0], 2) },
	};
	writeFileSync(file, `${JSON.stringify({ machine, results }, null, '\t')}\n`);
	return file;
}
