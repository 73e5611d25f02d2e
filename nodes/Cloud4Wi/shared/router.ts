import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Operation } from './descriptions';
import { ItemInput } from './validate';

/** Runs the chosen operation once per input item; one item's failure is its own (continueOnFail) or stops the run. */
export async function route(
	this: IExecuteFunctions,
	operations: Record<string, Record<string, Operation>>,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const resource = this.getNodeParameter('resource', itemIndex) as string;
			const operation = this.getNodeParameter('operation', itemIndex) as string;
			const run = operations[resource]?.[operation];
			if (!run) {
				throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`, {
					itemIndex,
				});
			}
			const records = await run.execute.call(this, new ItemInput(this, itemIndex));
			for (const json of records) output.push({ json, pairedItem: { item: itemIndex } });
		} catch (error) {
			const failure =
				error instanceof NodeApiError || error instanceof NodeOperationError
					? error
					: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			if (!this.continueOnFail()) throw failure;
			const json: IDataObject = { error: failure.message };
			if (failure.description) json.description = failure.description;
			if (failure instanceof NodeApiError && failure.httpCode) json.httpCode = failure.httpCode;
			output.push({ json, pairedItem: { item: itemIndex } });
		}
	}
	return [output];
}
