// Reads what `n8n execute --id ID --rawOutput` printed (n8n 2.40.7). Even with --rawOutput some log lines
// come first on stdout; the run data is the pretty-printed JSON object from a line "{" to the next line "}".
// A failed run prints the same JSON followed by "Error executing workflow" and a stack.

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
