/**
 * The limiter's simulation swept over limit shapes (test/limiter/simulation.ts, jest's clock: minutes, not hours, and
 * the same every run). Run it before and after any limiter change; it reads the source, no build needed:
 *   node node_modules/.bin/jest -c bench/jest.config.js --runInBand bench/limiter-sweep.bench.ts [-t family]
 * Each row: the pauses the service caused, the run's time against the floor (one pause is about 1.2x in these 6 s
 * runs), the limit learned and, when read as a rate, the requests a second paced at. Nothing is asserted.
 * The queue-mode family runs two limiters (two workers) on one service, the second started 0-600 ms after the first.
 * SWEEP_SAVE=file keeps the rows as JSON; SWEEP_BASE=file (an earlier save) then prints only the rows that moved: the
 * pauses, or a ratio or limit by more than a tenth (and 0.05). The sweep is deterministic: unchanged code moves none.
 * Each per-second row starts on a whole second of the clock (a fixed window's phase would follow the rows before it).
 * -t misreads and -t windows sum many seeds and phases: in-flight limits read as rates, and pauses against windows.
 * -t twins: services a limiter cannot tell apart, as it sees them the same answers at the same times (bench/README.md).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import type { Outcome, Slot } from '../nodes/Cloud4Wi/shared/limiter';
import { Limiter } from '../nodes/Cloud4Wi/shared/limiter';
import type { Model } from '../test/limiter/simulation';
import { run, send, Service, until } from '../test/limiter/simulation';
import { printTable, round } from './support/measure';

const SECONDS = Number(process.env.SWEEP_SECONDS ?? 6);
type Row = Record<string, string | number>;

/** The family's table, saved with the others (SWEEP_SAVE) and held against an earlier save (SWEEP_BASE). */
function report(title: string, rows: Row[]): void {
	printTable(title, rows);
	const { SWEEP_SAVE: save, SWEEP_BASE: base } = process.env;
	if (save) {
		const saved = existsSync(save) ? (JSON.parse(readFileSync(save, 'utf8')) as Record<string, Row[]>) : {};
		writeFileSync(save, JSON.stringify({ ...saved, [title]: rows }, null, 1));
	}
	if (!base) return;
	const before = new Map(
		((JSON.parse(readFileSync(base, 'utf8')) as Record<string, Row[]>)[title] ?? []).map((r) => [r.shape, r]),
	);
	const moved = rows.filter((row) => {
		const old = before.get(row.shape);
		return (
			!old ||
			Object.keys(row).some((key) => {
				const [a, b] = [parseFloat(String(old[key])), parseFloat(String(row[key]))];
				if (key === 'pauses') return a !== b;
				return Number.isFinite(a) || Number.isFinite(b)
					? !(Math.abs(b - a) <= Math.max(0.05, 0.1 * Math.abs(a)))
					: false;
			})
		);
	});
	const was = (row: Row) =>
		Object.fromEntries(
			Object.entries(before.get(row.shape) ?? {})
				.filter(([key]) => key !== 'shape')
				.map(([key, value]) => [`was ${key}`, value]),
		);
	printTable(
		`${title}: ${moved.length} of ${rows.length} rows moved since ${base}`,
		moved.map((row) => ({ ...row, ...was(row) })),
	);
}

const LATENCIES = [10, 40, 200];

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** An in-flight limit with answers spread by 30 %, and sends `wayMs` out of order. */
const inFlightModel = (inFlight: number, latencyMs: number, slowRefusals: boolean, wayMs = 0): Model => {
	return { inFlight, latencyMs, slowRefusals, wayMs, spreadMs: 0.3 * latencyMs, retryAfterMs: 1000 };
};

/** A request's mean time at the service and on the way there. */
const meanMsOf = (model: Model) => model.latencyMs + (model.spreadMs ?? 0) / 2 + 1 + (model.wayMs ?? 0) / 2;

/** One cold run of SECONDS at the service's rate; its row. */
async function row(shape: string, model: Model, seed = 1) {
	const meanMs = meanMsOf(model);
	const rate = Math.min(model.inFlight ? (1000 * model.inFlight) / meanMs : Infinity, model.perSecond || Infinity);
	const n = Math.max(50, Math.round(rate * SECONDS));
	const limiter = new Limiter();
	const service = new Service(model, seed);
	const { ms } = await run(limiter, service, model, n);
	const learned = limiter.learned();
	return {
		shape,
		pauses: service.pauses,
		vsFloor: `${round(ms / ((1000 * n) / rate), 2)}x`,
		limit: learned ? round(learned.refusedLevel - 1, 1) : '-',
		perSecond: learned?.perSecond ? round(learned.perSecond, 1) : '-',
	};
}

test('in flight: refusals at once or as slow as answers, answers steady or spread by 30 %', async () => {
	const rows = [];
	for (const slowRefusals of [false, true])
		for (const spread of [0, 0.3])
			for (const inFlight of [2, 4, 8, 16, 32, 64])
				for (const latencyMs of LATENCIES) {
					const model: Model = { inFlight, slowRefusals, latencyMs, spreadMs: spread * latencyMs, retryAfterMs: 1000 };
					const shape = `${inFlight} at ${latencyMs} ms${spread ? ' +30 %' : ''}${slowRefusals ? ', slow 429s' : ''}`;
					rows.push(await row(shape, model));
				}
	report('In flight: cold runs', rows);
});

/** Lets the clock run on to `phase` ms into a second (a fixed window's phase, and runs that start alike). */
const toPhase = (phase = 0) => jest.advanceTimersByTimeAsync((phase - (performance.now() % 1000) + 1000) % 1000);

/** A cold run against a per-second limit (answers spread by 30 %), started `phase` ms into a second of the clock. */
async function windowRow(window: Model['window'], perSecond: number, latencyMs: number, phase = 0) {
	await toPhase(phase);
	const model: Model = { perSecond, window, latencyMs, spreadMs: 0.3 * latencyMs, retryAfterMs: 1000 };
	return await row(`${window} ${perSecond} a second at ${latencyMs} ms`, model);
}

test('per second: sliding and fixed windows, token buckets; answers spread by 30 %', async () => {
	const rows = [];
	for (const window of ['sliding', 'fixed', 'bucket'] as const)
		for (const perSecond of [10, 20, 50, 100, 400, 1000])
			for (const latencyMs of LATENCIES) rows.push(await windowRow(window, perSecond, latencyMs));
	report('Per second: cold runs', rows);
});

test('sends out of order (a busy n8n): an in-flight limit must never be read as a rate', async () => {
	const rows = [];
	for (const slowRefusals of [false, true])
		for (const inFlight of [4, 8, 16, 17, 32, 64])
			for (const latencyMs of [10, 40])
				for (const seed of [1, 2, 3]) {
					const model = inFlightModel(inFlight, latencyMs, slowRefusals, 20);
					const shape = `${inFlight} at ${latencyMs} ms, way +20 ms${slowRefusals ? ', slow 429s' : ''}, seed ${seed}`;
					rows.push(await row(shape, model, seed * 7919));
				}
	report('In flight, sends out of order: cold runs (a rate read here is a misreading)', rows);
});

test('queue mode: two workers share an in-flight limit, the second starting 0-600 ms later', async () => {
	const rows = [];
	for (const slowRefusals of [false, true])
		for (const wayMs of [0, 20])
			for (const inFlight of [8, 16, 32])
				for (const latencyMs of LATENCIES) {
					const model = inFlightModel(inFlight, latencyMs, slowRefusals, wayMs);
					const meanMs = meanMsOf(model);
					const n = Math.round(((1000 * inFlight) / meanMs) * (SECONDS / 2));
					const ratios: number[] = [];
					let rates = 0;
					for (let offset = 0; offset <= 600; offset += latencyMs === 200 ? 75 : 25) {
						const service = new Service(model, 7 + offset);
						const [first, second] = [new Limiter(), new Limiter()];
						const started = performance.now();
						await until(Promise.all([send(first, service, model, n), send(second, service, model, n, n, offset)]));
						ratios.push((performance.now() - started) / ((2 * n * meanMs) / inFlight));
						if (first.learned()?.perSecond || second.learned()?.perSecond) rates++;
					}
					ratios.sort((a, b) => a - b);
					rows.push({
						shape: `${inFlight} at ${latencyMs} ms${wayMs ? ', way +20 ms' : ''}${slowRefusals ? ', slow 429s' : ''}`,
						starts: ratios.length,
						medianVsFloor: `${round(ratios[Math.floor(ratios.length / 2)], 2)}x`,
						worstVsFloor: `${round(ratios.at(-1)!, 2)}x`,
						readAsRate: rates,
					});
				}
	report('Queue mode, two workers: the job against its floor (a rate read here is a misreading)', rows);
});

test('misreads: in-flight limits read as rates', async () => {
	let [runs, misread, pauses] = [0, 0, 0];
	const bad: string[] = [];
	for (const slowRefusals of [false, true])
		for (const inFlight of [4, 8, 16, 17, 32, 64])
			for (const latencyMs of LATENCIES)
				for (const wayMs of [0, 20])
					for (let seed = 1; seed <= (wayMs ? 20 : 3); seed++) {
						const model = inFlightModel(inFlight, latencyMs, slowRefusals, wayMs);
						const n = Math.round(((1000 * inFlight) / meanMsOf(model)) * 3);
						const limiter = new Limiter();
						const service = new Service(model, seed * 7919);
						await run(limiter, service, model, n);
						[runs, pauses] = [runs + 1, pauses + service.pauses];
						if (!limiter.learned()?.perSecond) continue;
						misread++;
						bad.push(
							`${inFlight} at ${latencyMs} ms${wayMs ? ', way' : ''}${slowRefusals ? ', slow' : ''}, seed ${seed}`,
						);
					}
	printTable('In-flight limits read as rates', [{ runs, readAsRate: misread, pauses, which: bad.join('; ') || '-' }]);
}, 3_600_000);

test('windows: pauses per first run at each phase of the second', async () => {
	const [pausesOf, over]: [Record<number, number>, string[]] = [{}, []];
	let [runs, asInFlight] = [0, 0];
	for (const window of ['sliding', 'fixed', 'bucket'] as const)
		for (const perSecond of [10, 20, 50, 100, 400, 1000])
			for (const latencyMs of LATENCIES)
				for (const phase of window === 'fixed' ? [0, 170, 340, 510, 680, 850] : [0]) {
					const { shape, pauses, perSecond: rate } = await windowRow(window, perSecond, latencyMs, phase);
					runs++;
					pausesOf[pauses] = (pausesOf[pauses] ?? 0) + 1;
					if (pauses > 2) over.push(`${shape}, phase ${phase}: ${pauses}`);
					if (rate === '-') asInFlight++;
				}
	printTable('Per-second limits: first runs by pauses', [{ runs, ...pausesOf, readInFlight: asInFlight }]);
	printTable(
		'Over two pauses',
		over.map((run) => ({ run })),
	);
}, 3_600_000);

/** A limiter that keeps what it was told: each release's outcome and time from the first. */
class Recording extends Limiter {
	readonly told: Array<[number, string]> = [];
	private startedAt = Number.NaN;
	release(slot: Slot, outcome: Outcome, retryAfterMs = 0): void {
		if (Number.isNaN(this.startedAt)) this.startedAt = performance.now();
		this.told.push([round(performance.now() - this.startedAt, 3), outcome]);
		super.release(slot, outcome, retryAfterMs);
	}
}

test('twins: what a limiter cannot tell apart', async () => {
	/** 200 requests, 20 ms after a neighbour of `neighbourWidth` (if any) starts: what it was told, the limit it learned. */
	const subject = async (model: Model, neighbourWidth = 0) => {
		await toPhase();
		const [service, limiter] = [new Service(model), new Recording()];
		const neighbour = neighbourWidth ? [send(new Limiter(), service, model, 2000, neighbourWidth)] : [];
		await until(Promise.all([send(limiter, service, model, 200, 200, 20), ...neighbour]));
		const learned = limiter.learned();
		const limit = !learned
			? '-'
			: learned.perSecond
				? `${round(learned.perSecond, 1)}/s`
				: `${learned.refusedLevel - 1} in flight`;
		return { told: limiter.told, limit, pauses: service.pauses };
	};
	/** Whether two runs were told the same, up to `tillMs` (the whole run: Infinity). */
	const same = (a: Array<[number, string]>, b: Array<[number, string]>, tillMs: number) =>
		JSON.stringify(a.filter(([at]) => at < tillMs)) === JSON.stringify(b.filter(([at]) => at < tillMs));
	// Steady answers: no random draws, which a neighbour's requests would take from the twin's sequence.
	const inFlight = (n: number): Model => ({ inFlight: n, latencyMs: 40, retryAfterMs: 1000 });
	const rows = [];
	// Queue mode's newcomer: 4 of 16 left by a steady neighbour is, to the limiter, a service that takes 4.
	const [alone, newcomer] = [await subject(inFlight(4)), await subject(inFlight(16), 12)];
	rows.push({
		twins: '4 in flight | 16 in flight, a neighbour holding 12',
		same: same(alone.told, newcomer.told, Infinity) ? 'whole run' : 'no',
		pauses: `${alone.pauses} | ${newcomer.pauses}`,
		learned: `${alone.limit} | ${newcomer.limit}`,
	});
	// A rate refuses the first burst (under 16) or the climb (twice the in-flight twin) as an in-flight limit would, until
	// the first pause ends: a rate needs more congestions to show.
	for (const [perSecond, held] of [
		[10, 10],
		[32, 16],
	]) {
		const [rate, inFlightTwin] = [
			await subject({ perSecond, latencyMs: 40, retryAfterMs: 1000 }),
			await subject(inFlight(held)),
		];
		const firstPauseEnd = rate.told.find(([, outcome]) => outcome === 'limited')![0] + 1000;
		rows.push({
			twins: `${perSecond} a second | ${held} in flight`,
			same: same(rate.told, inFlightTwin.told, firstPauseEnd) ? 'to the first pause end' : 'no',
			pauses: `${rate.pauses} | ${inFlightTwin.pauses}`,
			learned: `${rate.limit} | ${inFlightTwin.limit}`,
		});
	}
	printTable('Twins: runs told the same (an outcome and its time, each)', rows);
});
