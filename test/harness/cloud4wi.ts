/** Shortcuts for tests: a sandbox plus a stored credential, and one-node workflows of the Cloud4Wi nodes. */
import type { IDataObject, INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { createSandbox } from '../sandbox';
import type { LoggedRequest, Sandbox, SandboxOptions } from '../sandbox';
import type { RunResult, WorkflowJson } from './engine';
import { buildWorkflow, CredentialStore, lastThrownError, runAsTool, runWorkflow } from './engine';

export const CREDENTIAL_ID = 'cred-1';

/** Every required field of Location > Create, valid. */
export const LOCATION_REQUIRED = {
	name: 'Milano Duomo Store',
	timezone: 'Europe/Rome',
	country: 'it',
	address: 'Piazza del Duomo 1',
	city: 'Milan',
	state: 'MI',
	zip: '20121',
	loginProfileId: 'lp-default',
	locationProfileId: 'lpr-default',
	welcomePortalId: 'wp-default',
};
export const ACTION_TYPE = 'n8n-nodes-cloud4wi.cloud4Wi';
/** The action node's tool variant, the type n8n gives it under an AI Agent or an MCP Server Trigger. */
export const TOOL_TYPE = 'n8n-nodes-cloud4wi.cloud4WiTool';
export const TRIGGER_TYPE = 'n8n-nodes-cloud4wi.cloud4WiTrigger';

/** What a run needs: the credential store (a sandbox's, a stand-in's or one built for the test). */
export interface StoreContext {
	store: CredentialStore;
}

export interface TestContext extends StoreContext {
	sb: Sandbox;
}

/** A credential store holding one Cloud4Wi credential for a sandbox (token empty, as a freshly created one). */
export function credentialFor(
	sb: { url: string; credentials: { clientKey: string; clientSecret: string; organizationId: string } },
	overrides: IDataObject = {},
): CredentialStore {
	const store = new CredentialStore();
	store.set(CREDENTIAL_ID, 'cloud4WiApi', {
		baseUrl: sb.url,
		clientKey: sb.credentials.clientKey,
		clientSecret: sb.credentials.clientSecret,
		organizationId: sb.credentials.organizationId,
		sessionToken: '',
		...overrides,
	});
	return store;
}

let sandboxes = 0;

/**
 * A sandbox and a credential pointing at it. Each has its own client key: a port the system reuses must not hand a
 * test the token or limits that an earlier test left in this process.
 */
export async function startCloud4Wi(options: SandboxOptions = {}, credential: IDataObject = {}): Promise<TestContext> {
	const sb = await createSandbox({ port: 0, clientKey: `test-key-${++sandboxes}`, ...options });
	return { sb, store: credentialFor(sb, credential) };
}

/**
 * One sandbox for the tests of a file (jest hooks): started before them, closed after them, its faults and logged
 * requests cleared before each. The context it returns reads the sandbox of the moment.
 */
export function sandboxPerFile(options: SandboxOptions = {}): TestContext {
	let started: TestContext | undefined;
	beforeAll(async () => {
		started = await startCloud4Wi(options);
	});
	afterAll(async () => await started?.sb.close());
	beforeEach(() => {
		started!.sb.clearFaults();
		started!.sb.clearRequests();
	});
	return {
		get sb() {
			return started!.sb;
		},
		get store() {
			return started!.store;
		},
	};
}

export function node(name: string, type: string, parameters: INodeParameters, extra: Partial<INode> = {}): INode {
	return {
		id: name,
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: type.startsWith('n8n-nodes-cloud4wi')
			? { cloud4WiApi: { id: CREDENTIAL_ID, name: 'Cloud4Wi' } }
			: undefined,
		...extra,
	};
}

/** Start (emitting `items`) -> Cloud4Wi (with `parameters`) -> NoOp. */
export function actionWorkflow(
	parameters: INodeParameters,
	items: IDataObject[] = [{}],
	extra: Partial<INode> = {},
): WorkflowJson {
	return {
		nodes: [
			node('Start', 'test.startItems', { items: JSON.stringify(items) }),
			node('Cloud4Wi', ACTION_TYPE, parameters, extra),
			node('Done', 'test.noOp', {}),
		],
		connections: {
			Start: { main: [[{ node: 'Cloud4Wi', type: 'main', index: 0 }]] },
			Cloud4Wi: { main: [[{ node: 'Done', type: 'main', index: 0 }]] },
		},
	};
}

/** Cloud4Wi Trigger (with `parameters`) -> NoOp. */
export function triggerWorkflow(parameters: INodeParameters): WorkflowJson {
	return {
		nodes: [node('Trigger', TRIGGER_TYPE, parameters), node('Done', 'test.noOp', {})],
		connections: { Trigger: { main: [[{ node: 'Done', type: 'main', index: 0 }]] } },
	};
}

export interface ActionResult extends RunResult {
	/** The Cloud4Wi node's output items. */
	items: INodeExecutionData[];
	/** Their json. */
	json: IDataObject[];
}

/** Runs one Cloud4Wi node through the engine and returns its output. */
export async function runAction(
	ctx: StoreContext,
	parameters: INodeParameters,
	items: IDataObject[] = [{}],
	extra: Partial<INode> = {},
): Promise<ActionResult> {
	const result = await runWorkflow(buildWorkflow(actionWorkflow(parameters, items, extra)), ctx.store);
	const output = result.output('Cloud4Wi');
	return { ...result, items: output, json: output.map((i) => i.json) };
}

/** The tool node's name in `callTool`'s workflow. */
export const TOOL = 'Cloud4Wi Tool';

/** `$fromAI(key)` in a parameter: the model fills it in when it calls the tool. */
export const fromAI = (key: string, type = 'string') => `={{ $fromAI('${key}', 'the ${key}', '${type}') }}`;

/** One call of the action node's tool variant by an AI agent, with the model's arguments: the answer it gets, parsed. */
export async function callTool(
	ctx: TestContext,
	parameters: INodeParameters,
	args: IDataObject = {},
	extra: Partial<INode> = {},
): Promise<unknown> {
	const workflow = buildWorkflow({ nodes: [node(TOOL, TOOL_TYPE, parameters, extra)], connections: {} });
	return JSON.parse(await runAsTool(workflow, ctx.store, TOOL, args));
}

/**
 * A run of n8n 2.x's AI Agent (a stand-in with a scripted model, test.agent) given the Cloud4Wi tools `tools`
 * (node name: parameters), calling each of `calls` once: what the model reads of each answer, and the run.
 */
export async function agentRun(
	ctx: TestContext,
	tools: Record<string, INodeParameters>,
	calls: Array<{ tool: string; args: IDataObject }>,
): Promise<RunResult & { read: Array<{ tool: string; read: unknown }> }> {
	const workflow: WorkflowJson = {
		settings: { executionOrder: 'v1' }, // as n8n 2.x saves every new workflow
		nodes: [
			node('Start', 'test.startItems', { items: '[{"chatInput":"hello"}]' }),
			node('AI Agent', 'test.agent', { calls: JSON.stringify(calls) }),
			...Object.entries(tools).map(([name, parameters]) => node(name, TOOL_TYPE, parameters)),
		],
		connections: {
			Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
			...Object.fromEntries(
				Object.keys(tools).map((name) => [name, { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] }]),
			),
		},
	};
	const result = await runWorkflow(buildWorkflow(workflow), ctx.store);
	const read = result
		.output('AI Agent')
		.map(({ json }) => ({ tool: json.tool as string, read: JSON.parse(json.read as string) }));
	return { ...result, read };
}

/** Requests the sandbox received, without logins, as `METHOD path`. */
export function apiCalls(sb: Sandbox): string[] {
	return sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login')).map((r) => `${r.method} ${r.path}`);
}

/** Congestions among the requests: 429s more than half a second after the one before, each costing a Retry-After pause. */
export function pausesOf(requests: ReadonlyArray<{ status: number; at: number }>): number {
	const refused = requests.filter((r) => r.status === 429).map((r) => r.at);
	return refused.filter((at, i) => i === 0 || at - refused[i - 1] > 500).length;
}

/** What the sandbox received, logins left out: method, path, query and body. */
export function sentCalls(ctx: TestContext): Array<Pick<LoggedRequest, 'method' | 'path' | 'query' | 'body'>> {
	return ctx.sb.requests
		.filter((r) => !r.path.startsWith('/v1/sts/login'))
		.map(({ method, path, query, body }) => ({ method, path, query, body }));
}

/** The run stopped with an error and no item went on: the error's name, message, description and status. */
export function runFailure(result: ActionResult) {
	expect(result.error).toBeDefined();
	expect(result.json).toEqual([]);
	const { name, message, description, httpCode } = result.error!;
	return { name, message, description, httpCode };
}

/** What the API shows of a stored record: the spec's fields only. */
export const shown = <T extends object>(record: T, fields: readonly string[]): IDataObject =>
	JSON.parse(
		JSON.stringify(Object.fromEntries(fields.map((f) => [f, (record as IDataObject)[f] ?? null]))),
	) as IDataObject;

/** The node failed with a NodeApiError of this status, message and description. */
export function expectApiError(status: string, message: string, description: string): NodeApiError {
	const error = lastThrownError() as NodeApiError;
	expect(error).toBeInstanceOf(NodeApiError);
	expect(error.message).toBe(message);
	expect(error.httpCode).toBe(status);
	expect(error.description).toBe(description);
	return error;
}

/** The node failed its item with a NodeOperationError that names the field, before any request. */
export function expectInputError(ctx: TestContext, result: ActionResult, field: string): void {
	expect(result.error).toBeDefined();
	const error = lastThrownError();
	expect(error).toBeInstanceOf(NodeOperationError);
	expect((error as Error).message.slice(0, field.length + 2)).toBe(`${field}: `);
	expect(ctx.sb.requests).toEqual([]);
}
