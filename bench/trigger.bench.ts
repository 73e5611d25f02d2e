/**
 * The trigger's scheduled poll, as n8n's scheduler runs it (pollOnce: PollContext + TriggersAndPollers, then a
 * 'trigger' execution of Trigger -> NoOp with what it emitted), against the sandbox:
 * - an idle poll (nothing new): median time over 20 polls, requests per poll;
 * - a poll after a burst of 5,000 and of 20,000 events, and the poll one minute later (nothing new);
 * - the trigger's static data over 60 simulated minutes at 50 events a minute.
 * Timings are reported, never asserted; only counts are checked.
 */
import type { IDataObject, INodeParameters, Workflow } from 'n8n-workflow';

import { node, TRIGGER_TYPE } from '../test/harness/cloud4wi';
import { buildWorkflow, pollOnce } from '../test/harness/engine';
import type { WorkflowJson } from '../test/harness/engine';
import type { Memory } from './support/measure';
import { gcAvailable, measure, median, printTable, round, time, worstMemory, writeResults } from './support/measure';
import type { BenchContext } from './support/remote';
import { apiRequests, startRemoteCloud4Wi } from './support/remote';
import { FILTERABLE_EVENT_KINDS } from '../nodes/Cloud4Wi/shared/constants';

const MINUTE = 60_000;
/** The trigger's page size (MAX_PAGE_SIZE). */
const PAGE = 10_000;
const IDLE_POLLS = 20;
const BURST_RUNS = 3;
const KINDS: string[] = [...FILTERABLE_EVENT_KINDS];

function triggerWorkflow(parameters: INodeParameters): WorkflowJson {
	return {
		nodes: [node('Trigger', TRIGGER_TYPE, parameters), node('Done', 'test.noOp', {})],
		connections: { Trigger: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
	};
}

/** Emitted items of one poll (0 when it emitted nothing); a failed workflow run fails the bench. */
async function poll(ctx: BenchContext, workflow: Workflow): Promise<number> {
	const { emitted, run } = await pollOnce(workflow, ctx.store, 'Trigger');
	expect(run?.error).toBeUndefined();
	return emitted?.length ?? 0;
}

const pollState = (workflow: Workflow) =>
	((workflow.staticData['node:Trigger'] as IDataObject | undefined)?.state ?? {}) as IDataObject;
const staticDataBytes = (workflow: Workflow) => Buffer.byteLength(JSON.stringify(workflow.staticData));
const rememberedIds = (workflow: Workflow) =>
	Object.keys((pollState(workflow).seen as IDataObject | undefined) ?? {}).length;

/** A sandbox and an activated trigger (all event kinds) that has polled once, so the token is stored. */
async function activeTrigger(): Promise<{ ctx: BenchContext; workflow: Workflow }> {
	const ctx = await startRemoteCloud4Wi();
	const workflow = buildWorkflow(triggerWorkflow({ events: [] }));
	expect(await poll(ctx, workflow)).toBe(0); // activation: records where to start
	expect(await poll(ctx, workflow)).toBe(0); // logs in
	return { ctx, workflow };
}

const results: IDataObject = {};
const pollRows: Array<Record<string, string | number>> = [];

describe('Trigger poll', () => {
	afterAll(() => {
		printTable(
			`Trigger polls through the engine (GC ${gcAvailable ? 'exposed' : 'NOT exposed: heap figures are rough'})`,
			pollRows,
		);
		const growth = results.staticData as { samples: Array<Record<string, number>> } | undefined;
		if (growth) {
			printTable(
				'Trigger static data, 50 events a minute, one poll a minute',
				growth.samples.map((s) => ({
					minute: s.minute,
					emitted: s.emitted,
					requests: s.requests,
					'remembered ids': s.rememberedIds,
					'static data bytes': s.bytes,
				})),
			);
		}
		writeResults('trigger', results);
	});

	test(`idle poll (nothing new), median of ${IDLE_POLLS}`, async () => {
		const { ctx, workflow } = await activeTrigger();
		try {
			await ctx.sb.clearRequests();
			const times: number[] = [];
			const cpu: number[] = [];
			for (let i = 0; i < IDLE_POLLS; i++) {
				const measured = await time(() => poll(ctx, workflow));
				expect(measured.value).toBe(0);
				times.push(measured.ms);
				cpu.push(measured.cpuMs);
			}
			const requests = apiRequests(await ctx.sb.requests()).length;
			expect(requests).toBe(IDLE_POLLS);
			const idle = {
				polls: IDLE_POLLS,
				medianMs: round(median(times), 1),
				minMs: round(Math.min(...times), 1),
				maxMs: round(Math.max(...times), 1),
				medianCpuMs: round(median(cpu), 1),
				requestsPerPoll: requests / IDLE_POLLS,
			};
			results.idle = idle;
			pollRows.push({
				case: 'idle poll',
				emitted: 0,
				'median ms': idle.medianMs,
				'CPU ms': idle.medianCpuMs,
				requests: idle.requestsPerPoll,
				'RSS +MB': '-',
				'heap peak +MB': '-',
				'state bytes': staticDataBytes(workflow),
			});
		} finally {
			await ctx.sb.close();
		}
	});

	test.each([5_000, 20_000])('poll after a burst of %i events, and the idle poll a minute later', async (burst) => {
		const after: Array<
			Memory & { ms: number; cpuMs: number; requests: number; stateBytes: number; remembered: number }
		> = [];
		const next: Array<{ ms: number; cpuMs: number; requests: number; stateBytes: number }> = [];
		for (let run = 0; run < BURST_RUNS; run++) {
			const { ctx, workflow } = await activeTrigger();
			try {
				// One event a millisecond from now on, every kind; then the clock moves past the last one.
				const base = await ctx.sb.now();
				expect(await ctx.sb.inject(burst, KINDS, base + 1, 1)).toBe(burst);
				await ctx.sb.advance(burst + 1000);
				await ctx.sb.clearRequests();
				const { value: emitted, ...numbers } = await measure(() => poll(ctx, workflow));
				expect(emitted).toBe(burst);
				const requests = apiRequests(await ctx.sb.requests()).length;
				expect(requests).toBe(Math.floor(burst / PAGE) + 1); // full pages, then a short (or empty) last one
				after.push({
					...numbers,
					requests,
					stateBytes: staticDataBytes(workflow),
					remembered: rememberedIds(workflow),
				});

				// Nothing new a minute later, but the burst is still inside the ten-minute look-back window.
				await ctx.sb.advance(MINUTE);
				await ctx.sb.clearRequests();
				const quiet = await time(() => poll(ctx, workflow));
				expect(quiet.value).toBe(0);
				next.push({
					ms: quiet.ms,
					cpuMs: quiet.cpuMs,
					requests: apiRequests(await ctx.sb.requests()).length,
					stateBytes: staticDataBytes(workflow),
				});
			} finally {
				await ctx.sb.close();
			}
		}
		const memory = worstMemory(after);
		const summary = {
			burst,
			runs: BURST_RUNS,
			afterBurst: {
				medianMs: round(median(after.map((r) => r.ms)), 0),
				runsMs: after.map((r) => round(r.ms, 0)),
				medianCpuMs: round(median(after.map((r) => r.cpuMs)), 0),
				eventsPerSecond: Math.round(burst / (median(after.map((r) => r.ms)) / 1000)),
				requests: after[0].requests,
				expectedRequests: Math.floor(burst / PAGE) + 1,
				...memory,
				stateBytes: after[0].stateBytes,
				rememberedIds: after[0].remembered,
			},
			nextPollNothingNew: {
				medianMs: round(median(next.map((r) => r.ms)), 0),
				medianCpuMs: round(median(next.map((r) => r.cpuMs)), 0),
				requests: next[0].requests,
				stateBytes: next[0].stateBytes,
			},
		};
		results[`burst${burst}`] = summary;
		pollRows.push({
			case: `burst of ${burst.toLocaleString('en-US')}`,
			emitted: burst,
			'median ms': summary.afterBurst.medianMs,
			'CPU ms': summary.afterBurst.medianCpuMs,
			requests: summary.afterBurst.requests,
			'RSS +MB': memory.rssDeltaMb,
			'heap peak +MB': memory.peakHeapDeltaMb,
			'state bytes': summary.afterBurst.stateBytes,
		});
		pollRows.push({
			case: `  next poll, nothing new`,
			emitted: 0,
			'median ms': summary.nextPollNothingNew.medianMs,
			'CPU ms': summary.nextPollNothingNew.medianCpuMs,
			requests: summary.nextPollNothingNew.requests,
			'RSS +MB': '-',
			'heap peak +MB': '-',
			'state bytes': summary.nextPollNothingNew.stateBytes,
		});
	});

	test('static data over 60 simulated minutes at 50 events a minute stays bounded', async () => {
		const perMinute = 50;
		const { ctx, workflow } = await activeTrigger();
		try {
			const samples: Array<Record<string, number>> = [];
			const times: number[] = [];
			let emittedTotal = 0;
			let maxBytes = 0;
			for (let minute = 1; minute <= 60; minute++) {
				// This minute's events, spread over it; then the clock moves one minute and n8n polls.
				const base = await ctx.sb.now();
				await ctx.sb.inject(perMinute, KINDS, base + 1, MINUTE / perMinute);
				await ctx.sb.advance(MINUTE);
				await ctx.sb.clearRequests();
				const { value: emitted, ms } = await time(() => poll(ctx, workflow));
				times.push(ms);
				emittedTotal += emitted;
				const bytes = staticDataBytes(workflow);
				maxBytes = Math.max(maxBytes, bytes);
				if ([1, 5, 10, 11, 15, 30, 45, 60].includes(minute)) {
					samples.push({
						minute,
						emitted,
						requests: apiRequests(await ctx.sb.requests()).length,
						rememberedIds: rememberedIds(workflow),
						bytes,
					});
				}
			}
			expect(emittedTotal).toBe(60 * perMinute);
			const finalBytes = staticDataBytes(workflow);
			results.staticData = {
				minutes: 60,
				eventsPerMinute: perMinute,
				emitted: emittedTotal,
				finalBytes,
				maxBytes,
				finalRememberedIds: rememberedIds(workflow),
				bytesPerRememberedId: round(finalBytes / Math.max(1, rememberedIds(workflow)), 1),
				medianPollMs: round(median(times), 1),
				samples,
			};
			pollRows.push({
				case: '60 min at 50/min',
				emitted: emittedTotal,
				'median ms': round(median(times), 1),
				'CPU ms': '-',
				requests: samples[samples.length - 1].requests,
				'RSS +MB': '-',
				'heap peak +MB': '-',
				'state bytes': finalBytes,
			});
		} finally {
			await ctx.sb.close();
		}
	});
});
