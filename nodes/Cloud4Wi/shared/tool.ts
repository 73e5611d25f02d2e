import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Operation } from './descriptions';
import { numberOf, onOffOf } from './formats';
import { inputError } from './input';

/** Get Many's Limit as a tool: a few records a call, so the model narrows its filters rather than reads on. */
export const TOOL_LIMIT = 10;
/** Longest answer a tool gives the model by default, in characters of JSON (some 5,000 tokens). */
export const TOOL_ANSWER_CHARS = 20_000;
const LEAST_ANSWER_CHARS = 1000;
/** Room kept for the answer's own fields and its note, so the whole answer stays within the length. */
const ENVELOPE_CHARS = 400;

/** n8n runs the node as an AI agent's tool under its tool variant, whose type name ends in "Tool". */
export function runsAsTool(ctx: { getNode(): INode }): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

const asTool = (property: INodeProperties, tool: boolean): INodeProperties => ({
	...property,
	displayOptions: {
		...property.displayOptions,
		show: { ...property.displayOptions?.show, '@tool': [tool] },
	},
});

/**
 * Each operation's `toolDescription`, as the Tool Description field of its tool variant: what the model is told
 * the tool does. Declaring the field keeps n8n from adding its own one-line description.
 */
export function toolDescriptionFields(resources: Record<string, { operations: Record<string, Operation> }>) {
	const fields: INodeProperties[] = [];
	for (const [resource, { operations }] of Object.entries(resources)) {
		for (const [operation, op] of Object.entries(operations)) {
			const text = (op as { toolDescription?: string }).toolDescription;
			if (!text) continue;
			fields.push({
				displayName: 'Tool Description',
				name: 'toolDescription',
				type: 'string',
				typeOptions: { rows: 4 },
				default: text,
				description: 'What the AI model is told this tool does, needs and returns',
				displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
			});
		}
	}
	return fields;
}

/** The operations' fields, with Get Many's Limit and Simplify at a model's size in the tool variant only. */
export function withToolDefaults(properties: INodeProperties[]): INodeProperties[] {
	const key = (p: INodeProperties) => `${p.displayOptions?.show?.resource}/${p.displayOptions?.show?.operation}`;
	const lists = new Set(properties.filter((p) => p.name === 'limit').map(key));
	const tool: Record<string, Partial<INodeProperties>> = {
		limit: { default: TOOL_LIMIT, description: 'Max number of records to give the AI model' },
		simplify: { default: true },
	};
	return properties.flatMap((p) =>
		tool[p.name] && lists.has(key(p)) ? [asTool(p, false), asTool({ ...p, ...tool[p.name] }, true)] : [p],
	);
}

export const maxAnswerLengthField: INodeProperties = asTool(
	{
		displayName: 'Max Answer Length',
		name: 'maxAnswerLength',
		type: 'number',
		typeOptions: { minValue: LEAST_ANSWER_CHARS, numberPrecision: 0 },
		default: TOOL_ANSWER_CHARS,
		description:
			'Most characters of an answer given to the AI model. Records past it are left out, and the answer says so.',
	},
	true,
);

/** The tool's Max Answer Length, checked before any request. */
export function answerLength(ctx: IExecuteFunctions): number {
	const value = ctx.getNodeParameter('maxAnswerLength', 0, TOOL_ANSWER_CHARS);
	const length = numberOf(value);
	if (!Number.isInteger(length) || length < LEAST_ANSWER_CHARS) {
		throw inputError(
			ctx.getNode(),
			'Max Answer Length',
			`must be a whole number of characters from ${LEAST_ANSWER_CHARS}, got "${String(value)}"`,
			0,
		);
	}
	return length;
}

/** How many of the records, from the first, fit in `room` characters of JSON. */
function fitting(records: IDataObject[], room: number): number {
	let used = 0;
	const fit = records.findIndex((record) => (used += JSON.stringify(record).length + 1) > room);
	return fit === -1 ? records.length : fit;
}

/**
 * The answer the model gets. A Get Many answers one item, `{ records, hasMore, note? }`: whether more records match
 * than it gives, so the model narrows its filters. Any answer longer than `length` keeps the records that fit, says so.
 */
export function answerForModel(ctx: IExecuteFunctions, items: INodeExecutionData[], length: number) {
	const records = items.map((item) => item.json);
	const listed = ctx.getNodeParameter('returnAll', 0, null) !== null; // a Get Many's field, absent elsewhere
	const limited = listed && onOffOf(ctx.getNodeParameter('returnAll', 0)) === false;
	const limit = limited ? numberOf(ctx.getNodeParameter('limit', 0)) : Infinity;
	const given = records.slice(0, limit); // a tool's Get Many reads one more than its Limit (ItemInput.limit)
	const fit = fitting(given, length - ENVELOPE_CHARS);
	if (!listed && fit === given.length) return items;
	const answer: IDataObject = { records: given.slice(0, fit), hasMore: fit < records.length };
	if (fit < given.length) {
		answer.note = `Cut to the first ${fit} of ${given.length} records to stay within ${length} characters. Narrow the filters to get the ones you need.`;
	} else if (given.length < records.length) {
		answer.note = `Only the first ${given.length} records are here: more match. Narrow the filters to get the ones you need.`;
	}
	return [{ json: answer, pairedItem: { item: 0 } }];
}
