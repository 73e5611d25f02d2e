/**
 * Each operation's tool is described for a model: its Tool Description, a field of the tool variant only (shown with
 * '@tool'), is what n8n gives the model, with the arguments the user left to it ($fromAI). The action node's form
 * outside the tool variant has none of the tool's fields.
 */
import type { INode, INodeParameters, INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ACTION_TYPE, fromAI, node, TOOL, TOOL_TYPE } from '../harness/cloud4wi';
import { buildWorkflow, nodeTypes, toolAsTheModelSeesIt } from '../harness/engine';

const action = nodeTypes.getByName(ACTION_TYPE).description as INodeTypeDescription;
const tool = nodeTypes.getByName(TOOL_TYPE).description as INodeTypeDescription;

const operations: Array<[string, string, string]> = action.properties
	.filter((p) => p.name === 'operation')
	.flatMap((p) =>
		(p.options as INodePropertyOptions[]).map((o): [string, string, string] => [
			String(p.displayOptions!.show!.resource![0]),
			String(o.value),
			o.name,
		]),
	);

function seen(parameters: INodeParameters) {
	return toolAsTheModelSeesIt(buildWorkflow({ nodes: [node(TOOL, TOOL_TYPE, parameters)], connections: {} }), TOOL);
}

/** The parameters n8n fills in for a node of this type (defaults of the fields it shows), as the Workflow does. */
function form(description: INodeTypeDescription, parameters: INodeParameters, properties = description.properties) {
	const n = { type: description.name, typeVersion: 1, parameters } as INode;
	return NodeHelpers.getNodeParameters(properties, parameters, true, false, n, description);
}

test.each(operations)('%s > %s (%s): the model is told what it does, needs and returns', (resource, operation) => {
	const told = seen({ resource, operation });
	expect(told.name).toBe('Cloud4Wi_Tool');
	expect(told.description).toBe(form(tool, { resource, operation })!.toolDescription);
	expect(told.description.length).toBeGreaterThan(150);
	expect(told.description).toMatch(/Returns /);
	if (operation === 'delete') expect(told.description).toMatch(/^Deletes .*cannot be undone/);
	if (operation === 'create' || operation === 'createAccessCode') expect(told.description).toContain('never retried');
	if (operation === 'update' || operation === 'updateOptIns') expect(told.description).toMatch(/twice is harmless/);
});

test("the arguments the user leaves to the model are the tool's schema; a description the user writes is the one told", () => {
	const told = seen({
		resource: 'contact',
		operation: 'getAll',
		toolDescription: 'Finds a hotel guest by email.',
		filters: { email: fromAI('email') },
	});
	expect(told).toEqual({ name: 'Cloud4Wi_Tool', description: 'Finds a hotel guest by email.', arguments: ['email'] });
});

test('changing the operation in the editor brings its own Tool Description, as n8n sets the defaults of a form', () => {
	// n8n's editor keeps the values that differ from the defaults, sets the new one, then fills in the defaults.
	const before = form(tool, { resource: 'contact', operation: 'getAll' })!;
	const changed = NodeHelpers.getNodeParameters(
		tool.properties,
		before,
		false,
		false,
		{ type: tool.name, typeVersion: 1, parameters: before } as INode,
		tool,
	)!;
	const after = form(tool, { ...changed, operation: 'delete' })!;
	expect(before.toolDescription).toMatch(/^Finds Cloud4Wi contacts/);
	expect(after.toolDescription).toMatch(/^Deletes one Cloud4Wi contact/);
});

test.each(operations)(
	"%s > %s: the action node's form, outside the tool variant, has none of the tool's fields",
	(resource, operation) => {
		const onlyTool = (p: INodeProperties) => p.displayOptions?.show?.['@tool']?.[0] === true;
		const withoutTool = action.properties.filter((p) => !onlyTool(p));
		const parameters = form(action, { resource, operation })!;
		expect(parameters).toEqual(form(action, { resource, operation }, withoutTool));
		expect(Object.keys(parameters)).not.toContain('toolDescription');
		expect(Object.keys(parameters)).not.toContain('maxAnswerLength');
	},
);

test("a Get Many's tool defaults: Limit 10, Simplify on, Max Answer Length 20,000; the action node keeps 50 and off", () => {
	const getMany = { resource: 'contact', operation: 'getAll' };
	expect(form(tool, getMany)).toMatchObject({ limit: 10, simplify: true, maxAnswerLength: 20_000 });
	expect(form(action, getMany)).toMatchObject({ limit: 50, simplify: false });
	// A single record's Simplify is the action node's, in the tool too.
	expect(form(tool, { resource: 'contact', operation: 'get' })).toMatchObject({ simplify: false });
});
