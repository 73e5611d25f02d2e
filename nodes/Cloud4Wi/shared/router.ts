import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { Operation } from './descriptions';
import type { RunSettings } from './runs';
import { DEFAULT_TIMEOUT_MS, rememberLimits, startRun } from './runs';
import { inputError, ItemInput } from './input';
import { answerForModel, answerLength } from './tool';

/** Default (and most) of Max Concurrent Requests: the limiter finds the service's level, so the default stays out of the way. */
const MAX_IN_FLIGHT = 1000;
/** Items started per turn of the event loop: the requests of those read leave before more items are read. */
const WAVE = 16;
/** Longest Timeout: an hour is far beyond any answer, and well within what a timer can hold (2^31 ms, with the login's time). */
const MAX_TIMEOUT_MS = 3_600_000;

/** Options of the whole node run, for every operation. */
export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Max Concurrent Requests',
			name: 'maxConcurrentRequests',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: MAX_IN_FLIGHT, numberPrecision: 0 },
			default: MAX_IN_FLIGHT,
			description:
				'Most requests to Cloud4Wi in flight at once. The node starts lower, goes up while Cloud4Wi keeps up and backs off when it answers 429. 1 sends one at a time.',
		},
		{
			displayName: 'Timeout',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1000, maxValue: MAX_TIMEOUT_MS, numberPrecision: 0 },
			default: DEFAULT_TIMEOUT_MS,
			description:
				'Time in ms to wait for each answer from Cloud4Wi. A read that gets no answer is tried again (5 times in all); a write is not, since it may have been applied.',
		},
	],
};

/** The node's Request Options, checked before any request; Max Concurrent Requests is the router's, the rest the run's. */
function settingsOf(ctx: IExecuteFunctions): Partial<RunSettings> & { maxInFlight?: number } {
	const options = (ctx.getNodeParameter('requestOptions', 0, {}) ?? {}) as IDataObject;
	const settings: Partial<RunSettings> & { maxInFlight?: number } = {};
	const max = options.maxConcurrentRequests;
	if (max !== undefined) {
		if (!Number.isInteger(max) || (max as number) < 1 || (max as number) > MAX_IN_FLIGHT) {
			throw inputError(
				ctx.getNode(),
				'Request Options > Max Concurrent Requests',
				`must be a whole number from 1 to ${MAX_IN_FLIGHT}, got "${String(max)}"`,
				0,
			);
		}
		settings.maxInFlight = max as number;
	}
	const timeout = options.timeout;
	if (timeout !== undefined) {
		if (!Number.isInteger(timeout) || (timeout as number) < 1000 || (timeout as number) > MAX_TIMEOUT_MS) {
			throw inputError(
				ctx.getNode(),
				'Request Options > Timeout',
				`must be a whole number of milliseconds from 1000 to ${MAX_TIMEOUT_MS} (an hour), got "${String(timeout)}"`,
				0,
			);
		}
		settings.timeoutMs = timeout as number;
	}
	return settings;
}

/** An item's output under Continue On Fail: the error's message, description and HTTP status. */
function failedItem(failure: NodeApiError | NodeOperationError, itemIndex: number): INodeExecutionData {
	const json: IDataObject = { error: failure.message };
	if (failure.description) json.description = failure.description;
	if (failure instanceof NodeApiError && failure.httpCode) json.httpCode = failure.httpCode;
	return { json, pairedItem: { item: itemIndex } };
}

/**
 * Runs the chosen operation for every input item, several at once (the account's limiter decides how many requests
 * are in flight). Output keeps the input order and pairing; one item's failure is its own (continueOnFail) or, after
 * the items already started have finished, stops the run with the error of the first failed item.
 */
export async function route(
	this: IExecuteFunctions,
	operations: Record<string, Record<string, Operation>>,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	let options: ReturnType<typeof settingsOf>;
	try {
		options = settingsOf(this);
	} catch (error) {
		const failure = error as NodeOperationError; // from inputError
		// With Continue On Fail n8n would pass the input through as if done: each item says it was not sent, and why.
		if (!this.continueOnFail()) throw failure;
		return [items.map((_, itemIndex) => failedItem(failure, itemIndex))];
	}
	const { maxInFlight = MAX_IN_FLIGHT, ...settings } = options;
	const outputs: INodeExecutionData[][] = new Array(items.length);
	const stop: { first?: { itemIndex: number; error: NodeApiError | NodeOperationError } } = {};
	// Once an item failed (no Continue On Fail), the items after it that are read but not sent yet are not sent.
	startRun(this, { ...settings, dropped: (itemIndex) => stop.first !== undefined && itemIndex > stop.first.itemIndex });
	let next = 0;

	// Resource and Operation take no expressions (noDataExpression): the same for every item.
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = operations[resource]?.[operation];

	const runItem = async (itemIndex: number): Promise<INodeExecutionData[]> => {
		if (!chosen) {
			throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`, {
				itemIndex,
			});
		}
		const records = await chosen.execute.call(this, new ItemInput(this, itemIndex));
		return records.map((json) => ({ json, pairedItem: { item: itemIndex } }));
	};

	const worker = async () => {
		while (next < items.length && !stop.first) {
			const itemIndex = next++;
			try {
				outputs[itemIndex] = await runItem(itemIndex);
			} catch (error) {
				const failure =
					error instanceof NodeApiError || error instanceof NodeOperationError
						? error
						: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
				if (!this.continueOnFail()) {
					const first = stop.first as { itemIndex: number } | undefined; // set by another worker meanwhile
					if (!first || itemIndex < first.itemIndex) stop.first = { itemIndex, error: failure };
					continue;
				}
				outputs[itemIndex] = [failedItem(failure, itemIndex)];
			}
			// Answers that came in meanwhile are handled before the next item's parameters are read (about a millisecond
			// of n8n's expression engine per item in a real n8n), so they do not wait for it.
			if (width > 1) await sleep(0);
		}
	};
	// Max Concurrent Requests is the run's own hard cap as its number of workers; the limiter counts the whole account.
	// Reading an item's parameters is most of its CPU in a real n8n: items start a wave at a time, not all at once.
	const width = Math.min(maxInFlight, items.length);
	const started: Array<Promise<void>> = [];
	try {
		for (let i = 0; i < width && !stop.first; i++) {
			started.push(worker());
			if (i % WAVE === WAVE - 1) await sleep(0);
		}
		await Promise.all(started);
	} finally {
		await rememberLimits(this);
	}
	if (stop.first) throw stop.first.error;
	return [outputs.flat()];
}

/**
 * The node as an AI agent's tool: the answer sized for a model (answerForModel), and a failure given as the answer
 * (what went wrong, the field or HTTP status, the hint), as under Continue On Fail, so the agent reads it and goes on.
 */
export async function routeAsTool(
	this: IExecuteFunctions,
	operations: Record<string, Record<string, Operation>>,
): Promise<INodeExecutionData[][]> {
	try {
		const length = answerLength(this);
		const [items] = await route.call(this, operations);
		return [answerForModel(this, items, length)];
	} catch (error) {
		const failure =
			error instanceof NodeApiError || error instanceof NodeOperationError
				? error
				: new NodeOperationError(this.getNode(), error as Error);
		return [[failedItem(failure, 0)]];
	}
}
