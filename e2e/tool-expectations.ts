/**
 * What a model should be told about a Cloud4Wi tool, read from the package as installed (its built node), and the
 * checks of the tools' answers shared by the agent and MCP tests (e2e/ai-tools.e2e.ts).
 */
import { join } from 'node:path';

interface Property {
	name: string;
	default?: unknown;
	displayOptions?: { show?: Record<string, unknown[]>; hide?: Record<string, unknown[]> };
}
interface NodeDescription {
	description: string;
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

/** The description a model sees for the tool of this resource and operation: the package's `toolDescription` for it. */
export function expectedToolDescription(packageDir: string, resource: string, operation: string): string {
	const node = toolVariant(packageDir);
	const values = { resource, operation, '@tool': true, '@version': 1 };
	const declared = node.properties.filter((p) => p.name === 'toolDescription' && shownFor(p, values));
	if (declared.length !== 1)
		throw new Error(`${declared.length} toolDescription properties for ${resource} ${operation}, not one`);
	return String(declared[0].default);
}

/**
 * A tool as a model or an MCP client is offered it: the package's description for it and the JSON schema of its `$fromAI()` keys (n8n: every key required, no others).
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
	expect({ tool: tool.name, description: offered.description }).toEqual({ tool: tool.name, description: expected });
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
 * The tools' answers as the node gives them in tool mode: a Get Many answers one item `{ records, hasMore, note? }`;
 * a failure answers `{ error, description, httpCode }` (the service's words, the node's hint, the status) instead of
 * throwing, so the agent goes on in both n8n lines. n8n's MCP server flags `isError` only for a tool that threw, so
 * an MCP client reads the failure from the answer's `error` and `httpCode`.
 */
export function toolAnswerShapeProblems(answers: { found: string; missing: string; missingId: string }): string[] {
	const problems: string[] = [];
	const parsed = (text: string, what: string): unknown => {
		try {
			return JSON.parse(text);
		} catch {
			problems.push(`${what} is not JSON: ${text.slice(0, 200)}`);
			return undefined;
		}
	};
	const found = parsed(answers.found, 'the Get Many answer') as Array<{ records?: unknown; hasMore?: unknown }>;
	if (found && !(Array.isArray(found) && found.length === 1 && Array.isArray(found[0].records) && found[0].hasMore === false))
		problems.push(`the Get Many answer is not one { records, hasMore: false }: ${answers.found.slice(0, 200)}`);
	const missing = parsed(answers.missing, 'the not-found answer') as Array<Record<string, unknown>>;
	const expected = {
		error: `Contact not found: ${answers.missingId}`,
		description: `Cloud4Wi has no contact "${answers.missingId}". Check the ID.`,
		httpCode: '404',
	};
	if (missing && JSON.stringify(missing) !== JSON.stringify([expected]))
		problems.push(`the not-found answer is not ${JSON.stringify([expected])}: ${answers.missing.slice(0, 300)}`);
	return problems;
}
