/**
 * The limiter's simulation over many seeds and phases, summed (the sweep shows one run per shape):
 *   node node_modules/.bin/jest -c bench/jest.config.js --runInBand bench/limiter-seeds.bench.ts [-t misreads|windows]
 * - misreads: 828 cold runs of in-flight limits (2-64, 10-200 ms, slow 429s, sends out of order); a rate read is a
 *   misreading that paces a run far under the service's limit for 10 minutes.
 * - windows: 144 cold runs of per-second limits (sliding, fixed at six phases of the clock second, buckets): the
 *   pauses each took (the issue asks for two at most) and how many were read as in-flight limits.
 */
import { Limiter } from '../nodes/Cloud4Wi/shared/limiter';
import type { Model } from '../test/unit/limiter-sim';
import { run, Service } from '../test/unit/limiter-sim';
import { printTable } from './support/measure';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('misreads: in-flight limits read as rates', async () => {
	let [runs, misread, pauses] = [0, 0, 0];
	const bad: string[] = [];
	for (const slowRefusals of [false, true])
		for (const inFlight of [4, 8, 16, 17, 32, 64])
			for (const latencyMs of [10, 40, 200])
				for (const wayMs of [0, 20])
					for (let seed = 1; seed <= (wayMs ? 20 : 3); seed++) {
						const model: Model = {
							inFlight,
							slowRefusals,
							latencyMs,
							spreadMs: 0.3 * latencyMs,
							wayMs,
							retryAfterMs: 1000,
						};
						const n = Math.round(((1000 * inFlight) / (latencyMs * 1.15 + 1 + wayMs / 2)) * 3);
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
			for (const latencyMs of [10, 40, 200])
				for (const phase of window === 'fixed' ? [0, 170, 340, 510, 680, 850] : [0]) {
					await jest.advanceTimersByTimeAsync((phase - (performance.now() % 1000) + 1000) % 1000);
					const model: Model = { perSecond, window, latencyMs, spreadMs: 0.3 * latencyMs, retryAfterMs: 1000 };
					const [limiter, service] = [new Limiter(), new Service(model, 1)];
					await run(limiter, service, model, Math.max(50, perSecond * 6));
					runs++;
					pausesOf[service.pauses] = (pausesOf[service.pauses] ?? 0) + 1;
					if (service.pauses > 2)
						over.push(`${window} ${perSecond} at ${latencyMs} ms, phase ${phase}: ${service.pauses}`);
					if (!limiter.learned()?.perSecond) asInFlight++;
				}
	printTable('Per-second limits: first runs by pauses', [{ runs, ...pausesOf, readInFlight: asInFlight }]);
	printTable(
		'Over two pauses',
		over.map((run) => ({ run })),
	);
}, 3_600_000);
