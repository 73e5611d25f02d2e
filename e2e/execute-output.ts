// Run data of n8n 2.40.7 and 1.123.81: read from what `n8n execute --id ID --rawOutput` printed, or from a run started
// over its REST API as the editor starts one (`runFromEditor`).
// For `n8n execute`: even with --rawOutput some log lines come first on stdout; the run data is the pretty-printed
// JSON object from a line "{" to the next line "}".
// A failed run prints the same JSON followed by "Error executing workflow" and a stack.

import type { N8n } from './fixtures';

/** Run data as JSON, read loosely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export function parseExecuteOutput(text: string): { run: Json; problem: string | null } {
	const lines = String(text).split('\n');
	const start = lines.indexOf('{');
	const end = start < 0 ? -1 : lines.indexOf('}', start);
	if (start < 0 || end < 0) return { run: null, problem: 'no run data (JSON) in the output' };
	try {
		return { run: JSON.parse(lines.slice(start, end + 1).join('\n')), problem: null };
	} catch (error) {
		return { run: null, problem: `run data is not JSON: ${(error as Error).message}` };
	}
}

/** The first run of a node: whether it ran, its status, its output items (json only) and its error message. */
export function nodeRun(
	run: Json,
	nodeName: string,
): { ran: boolean; status: string; items: Json[]; error: string | null } {
	const runs = run?.data?.resultData?.runData?.[nodeName];
	if (!Array.isArray(runs) || runs.length === 0) return { ran: false, status: 'not run', items: [], error: null };
	const first = runs[0];
	const items = (first.data?.main?.[0] ?? []).map((item: Json) => item.json ?? {});
	const error = first.error ? String(first.error.message ?? first.error.description ?? 'error') : null;
	return { ran: true, status: first.executionStatus ?? 'unknown', items, error };
}

/** The error of the whole execution, if any. */
export function runError(run: Json): string | null {
	const error = run?.data?.resultData?.error;
	return error ? String(error.message ?? error.description ?? 'error') : null;
}

/** n8n's REST API stores run data "flatted": a table whose first entry is the root; strings inside objects are indexes. */
function unflatten(text: string): unknown {
	const table = JSON.parse(text) as unknown[];
	const done = new Set<number>();
	const resolve = (index: number): unknown => {
		const entry = table[index];
		if (entry !== null && typeof entry === 'object' && !done.has(index)) {
			done.add(index);
			const record = entry as Record<string, unknown>;
			for (const key of Object.keys(record)) {
				if (typeof record[key] === 'string') record[key] = resolve(Number(record[key]));
			}
		}
		return entry;
	};
	return resolve(0);
}

/**
 * Runs a workflow from its trigger as the editor's "Execute workflow" button does (POST /rest/workflows/:id/run) and
 * waits for it to end. `run` has the shape `n8n execute` prints, for `nodeRun` and `runError`.
 */
export async function runFromEditor(
	n8n: Pick<N8n, 'rest'>,
	workflowId: string,
	trigger: string,
	timeoutMs = 60_000,
): Promise<{ status: string; run: Json }> {
	// n8n 1.x runs the workflow the editor sends it; 2.x reads it from its database and ignores this.
	const workflowData = await n8n.rest('GET', `/rest/workflows/${workflowId}`);
	const started = await n8n.rest<{ executionId?: string }>('POST', `/rest/workflows/${workflowId}/run`, {
		workflowData,
		triggerToStartFrom: { name: trigger },
	});
	if (!started.executionId) throw new Error(`n8n started no execution: ${JSON.stringify(started)}`);
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await n8n.rest<{ status: string; data: string }>('GET', `/rest/executions/${started.executionId}`);
		if (['success', 'error', 'crashed', 'canceled'].includes(execution.status)) {
			return { status: execution.status, run: { data: unflatten(execution.data) } };
		}
		if (Date.now() > deadline) {
			throw new Error(`execution ${started.executionId} still ${execution.status} after ${timeoutMs / 1000} s`);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}
