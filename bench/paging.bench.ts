/**
 * Return All through the real engine (Start -> Cloud4Wi -> NoOp) against the sandbox: contacts at 10,000 / 50,000 /
 * 100,000 and 20,000 organization events. Per case: median wall time of 3 runs, records/s, requests the sandbox saw,
 * peak RSS and heap, and the heap the returned items hold. Timings are reported, never asserted.
 */
import type { INodeParameters } from 'n8n-workflow';

import { actionWorkflow } from '../test/harness/cloud4wi';
import { buildWorkflow, runWorkflow } from '../test/harness/engine';
import type { Measured, Memory } from './support/measure';
import { gcAvailable, measure, median, printTable, round, worstMemory, writeResults } from './support/measure';
import type { BenchContext } from './support/remote';
import { apiRequests, startRemoteCloud4Wi } from './support/remote';
import { FILTERABLE_EVENT_KINDS } from '../nodes/Cloud4Wi/shared/constants';

const RUNS = 3;
const PAGE = 10_000;
const EVENT_KINDS: string[] = [...FILTERABLE_EVENT_KINDS];

interface CaseResult extends Memory {
	case: string;
	records: number;
	items: number;
	medianMs: number;
	runsMs: number[];
	/** CPU time of the n8n process, median, ms. */
	medianCpuMs: number;
	/** CPU time of the sandbox process serving the run, median, ms (not n8n's cost; on 2 cores it competes with it). */
	medianSandboxCpuMs: number;
	recordsPerSecond: number;
	/** Requests of the listing itself (logins excluded), per run. */
	requests: number;
	expectedRequests: number;
	/** Size of one returned record as JSON, bytes (average). */
	jsonBytesPerRecord: number;
	/** RSS and heap of the bench process before the first measured run, MB. */
	before: { rssMb: number; heapUsedMb: number };
	/** Retained heap per 10,000 records, MB. */
	retainedMbPer10k: number;
}

const results: CaseResult[] = [];

/** Runs a listing RUNS times; checks item count, distinct ids and the number of page requests, and reports the rest. */
async function benchListing(
	ctx: BenchContext,
	name: string,
	parameters: INodeParameters,
	records: number,
	listPath: RegExp,
	expectedRequests: number,
): Promise<CaseResult> {
	// Log in first, so every measured run does the same work.
	const warm = await runWorkflow(
		buildWorkflow(actionWorkflow({ resource: 'segment', operation: 'getAll', returnAll: true })),
		ctx.store,
	);
	expect(warm.error).toBeUndefined();

	const runs: Array<Omit<Measured<unknown>, 'value'> & { sandboxCpuMs: number }> = [];
	let items = 0;
	let requests = 0;
	let jsonBytesPerRecord = 0;
	for (let run = 0; run < RUNS; run++) {
		await ctx.sb.clearRequests();
		const sandboxCpuBefore = await ctx.sb.cpuMs();
		const { value: result, ...numbers } = await measure(() =>
			runWorkflow(buildWorkflow(actionWorkflow(parameters)), ctx.store),
		);
		const sandboxCpuMs = (await ctx.sb.cpuMs()) - sandboxCpuBefore;
		const output = result.output('Cloud4Wi');
		expect(result.error).toBeUndefined();
		items = output.length;
		expect(items).toBe(records);
		if (run === 0) {
			expect(
				new Set(output.map((i) => String(i.json.cid ?? (i.json.event as { id?: string } | undefined)?.id))).size,
			).toBe(records);
			jsonBytesPerRecord = Math.round(Buffer.byteLength(JSON.stringify(output.map((i) => i.json))) / records);
		}
		requests = apiRequests(await ctx.sb.requests()).filter((r) => listPath.test(r.path)).length;
		expect(requests).toBe(expectedRequests);
		runs.push({ ...numbers, sandboxCpuMs });
	}
	const medianMs = median(runs.map((r) => r.ms));
	const memory = worstMemory(runs);
	return {
		case: name,
		records,
		items,
		medianMs: round(medianMs, 0),
		runsMs: runs.map((r) => round(r.ms, 0)),
		medianCpuMs: round(median(runs.map((r) => r.cpuMs)), 0),
		medianSandboxCpuMs: round(median(runs.map((r) => r.sandboxCpuMs)), 0),
		recordsPerSecond: Math.round(records / (medianMs / 1000)),
		requests,
		expectedRequests,
		jsonBytesPerRecord,
		before: runs[0].before,
		...memory,
		retainedMbPer10k: round((memory.retainedHeapMb / records) * 10_000),
	};
}

describe('Return All paging', () => {
	afterAll(() => {
		printTable(
			`Return All through the engine, median of ${RUNS} runs (GC ${gcAvailable ? 'exposed' : 'NOT exposed: heap figures are rough'})`,
			results.map((r) => ({
				case: r.case,
				items: r.items,
				'median s': (r.medianMs / 1000).toFixed(2),
				'n8n CPU s': (r.medianCpuMs / 1000).toFixed(2),
				'sandbox CPU s': (r.medianSandboxCpuMs / 1000).toFixed(2),
				'records/s': r.recordsPerSecond,
				requests: `${r.requests} (exp. ${r.expectedRequests})`,
				'peak RSS MB': r.peakRssMb,
				'RSS +MB': r.rssDeltaMb,
				'heap peak +MB': r.peakHeapDeltaMb,
				'heap kept MB': r.retainedHeapMb,
				'kept MB/10k': r.retainedMbPer10k,
				'JSON B/rec': r.jsonBytesPerRecord,
			})),
		);
		writeResults('paging', results);
	});

	test.each([10_000, 50_000, 100_000])('contact Get Many, Return All of %i contacts', async (contacts) => {
		const ctx = await startRemoteCloud4Wi({ contacts });
		try {
			results.push(
				await benchListing(
					ctx,
					`contacts ${contacts.toLocaleString('en-US')}`,
					{ resource: 'contact', operation: 'getAll', returnAll: true },
					contacts,
					/^\/v2\/customers\/organizations\//,
					Math.ceil(contacts / PAGE),
				),
			);
		} finally {
			await ctx.sb.close();
		}
	});

	test('event Get Many, Return All of 20,000 injected organization events', async () => {
		const count = 20_000;
		const ctx = await startRemoteCloud4Wi({ events: 0 });
		try {
			const now = await ctx.sb.now();
			// Spread over the last hour, every filterable kind.
			expect(await ctx.sb.inject(count, EVENT_KINDS, now - 3_600_000, 3_600_000 / count)).toBe(count);
			// The events list has no total, so a count that is a multiple of the page size costs one trailing empty page.
			results.push(
				await benchListing(
					ctx,
					'org events 20,000',
					{ resource: 'event', operation: 'getAll', returnAll: true },
					count,
					/\/events$/,
					count / PAGE + 1,
				),
			);
		} finally {
			await ctx.sb.close();
		}
	});
});
