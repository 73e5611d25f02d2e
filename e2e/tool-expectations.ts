/**
 * What a model should be told about a Cloud4Wi tool, read from the package as installed (its built node), and the
 * checks of the tools' answers shared by the agent and MCP tests (e2e/ai-tools.e2e.ts).
 */
import { join } from 'node:path';

interface Property {
	name: string;
	default?: unknown;
	displayOptions?: { show?: Record<string, unknown[]>; hide?: Record<string, unknown[]> };
	options?: Array<{ value?: unknown; action?: string }>;
}
interface NodeDescription {
	description: string;
	defaults: { name: string };
	usableAsTool?: boolean | { replacements?: Partial<NodeDescription> };
	properties: Property[];
}

/** The node's description as n8n builds its tool variant from it (with `usableAsTool.replacements`). */
function toolVariant(packageDir: string): NodeDescription {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const built = require(join(packageDir, 'dist', 'nodes', 'Cloud4Wi', 'Cloud4Wi.node.js')) as {
		Cloud4Wi: new () => { description: NodeDescription };
	};
	const description = new built.Cloud4Wi().description;
	const replacements = typeof description.usableAsTool === 'object' ? description.usableAsTool.replacements : {};
	return { ...description, ...replacements };
}

/** Whether a property is shown in the tool variant for this resource and operation (the conditions it may use). */
function shownFor(property: Property, values: Record<string, unknown>): boolean {
	const { show = {}, hide = {} } = property.displayOptions ?? {};
	for (const key of [...Object.keys(show), ...Object.keys(hide)])
		if (!(key in values))
			throw new Error(`toolDescription shown on "${key}": extend shownFor in e2e/tool-expectations.ts`);
	return (
		Object.entries(show).every(([key, allowed]) => allowed.includes(values[key])) &&
		!Object.entries(hide).some(([key, hidden]) => hidden.includes(values[key]))
	);
}

/**
 * The description a model sees for the tool of this resource and operation: the `toolDescription` the installed
 * package declares for it, or, when it declares none, n8n's own ("<operation's action> in Cloud4Wi", n8n-workflow's
 * makeDescription). `source` says which.
 */
export function expectedToolDescription(
	packageDir: string,
	resource: string,
	operation: string,
): { text: string; source: string } {
	const node = toolVariant(packageDir);
	const values = { resource, operation, '@tool': true, '@version': 1 };
	const declared = node.properties.filter((p) => p.name === 'toolDescription' && shownFor(p, values));
	if (declared.length > 1)
		throw new Error(`${declared.length} toolDescription properties for ${resource} ${operation}`);
	if (declared.length === 1)
		return { text: String(declared[0].default), source: "the package's toolDescription for this operation" };
	const operations = node.properties.find(
		(p) => p.name === 'operation' && shownFor(p, { ...values, operation: undefined }),
	);
	const action = operations?.options?.find((o) => o.value === operation)?.action;
	if (!action) throw new Error(`no action text for ${resource} ${operation} in the installed node`);
	return { text: `${action} in ${node.defaults.name}`, source: "n8n's default (the operation's action text)" };
}

/**
 * A tool as a model or an MCP client is offered it: the description `expectedToolDescription` gives (the failure
 * names which it expected) and the JSON schema of its `$fromAI()` keys (n8n: every key required, no others).
 */
export function expectTool(
	packageDir: string,
	offered: { description?: string; schema: unknown },
	tool: {
		name: string;
		resource: string;
		operation: string;
		schema: Record<string, { type: string; description: string }>;
	},
) {
	const expected = expectedToolDescription(packageDir, tool.resource, tool.operation);
	expect({ tool: tool.name, description: offered.description, expectedFrom: expected.source }).toEqual({
		tool: tool.name,
		description: expected.text,
		expectedFrom: expected.source,
	});
	expect(offered.schema).toMatchObject({ type: 'object', properties: tool.schema, required: Object.keys(tool.schema) });
	expect(Object.keys((offered.schema as { properties: object }).properties).sort()).toEqual(
		Object.keys(tool.schema).sort(),
	);
}

/** No secret of the Cloud4Wi credential, nor a token the sandbox saw, is in `text`. */
export function leakedSecrets(text: string, secrets: string[]): string[] {
	return secrets.filter((secret) => secret.length >= 8 && text.includes(secret));
}

/**
 * The shape of the tools' answers beyond what the tests assert on both sides of issue 49's tool answers (the contact
 * found, the service's words and "not found" for a missing one, no secret). Tighten here once they are in: the
 * not-found answer carrying the status (404), the field and the node's hint ("Check the ID"), a Get Many answer
 * saying whether more records exist, and whether an MCP client sees the failed call flagged `isError` (n8n 2.40.7
 * flags only a tool that threw: an error given as the tool's answer is not flagged).
 */
export function toolAnswerShapeProblems(answers: { found: string; missing: string; mcpIsError?: boolean }): string[] {
	const problems: string[] = [];
	try {
		JSON.parse(answers.found);
	} catch {
		problems.push(`the Get Many answer is not JSON: ${answers.found.slice(0, 200)}`);
	}
	if (!/404|not found/i.test(answers.missing))
		problems.push(`the not-found answer says neither 404 nor "not found": ${answers.missing}`);
	return problems;
}
