/**
 * Runs workflow JSON through n8n-core's real engine (WorkflowExecute, PollContext, TriggersAndPollers) with
 * the built package loaded the way n8n loads it: from the paths in package.json's `n8n` field.
 *
 * Unlike n8n's own node test harness, credentials are not stubbed: `preAuthentication` and `authenticate`
 * run as n8n's CLI runs them (login when the token is empty or refused, token written back to the store).
 */
import { Container } from '@n8n/di';
import {
	ExecuteContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	PollContext,
	RoutingNode,
	SupplyDataContext,
	TriggersAndPollers,
	WorkflowExecute,
} from 'n8n-core';
import type {
	EngineRequest,
	EngineResponse,
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	ICredentials,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeConnectionTypes, Workflow } from 'n8n-workflow';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
	name: string;
	n8n: { nodes: string[]; credentials: string[] };
};

function loadClass<T>(file: string): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const mod = require(path.join(ROOT, file)) as Record<string, new () => T>;
	const name = path.basename(file).split('.')[0];
	return new mod[name]();
}

/** Our nodes and credential, from dist/ as listed in package.json. */
export const credentialTypes: Record<string, ICredentialType> = Object.fromEntries(
	PACKAGE.n8n.credentials.map((file) => {
		const type = loadClass<ICredentialType>(file);
		return [type.name, type];
	}),
);

/** Test-only stand-ins for n8n-nodes-base nodes: a start node that emits given items, and NoOp. */
const startNode: INodeType = {
	description: {
		displayName: 'Start Items',
		name: 'startItems',
		group: ['trigger'],
		version: 1,
		description: 'Emits the items in its `items` parameter',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[{}]' }],
	},
	async execute() {
		const raw = this.getNodeParameter('items', 0, '[{}]') as string | IDataObject[];
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json) => ({ json }))];
	},
};
const noOpNode: INodeType = {
	description: {
		displayName: 'No Op',
		name: 'noOp',
		group: ['transform'],
		version: 1,
		description: 'Passes items on',
		defaults: { name: 'NoOp' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [],
	},
	async execute() {
		return [this.getInputData()];
	},
};

/**
 * A node's tool variant as n8n 2.x makes it for a node `usableAsTool` (n8n's `convertNodeToAiTool`): the same node
 * under the type name + "Tool", with no main input and an AI tool output, so '@tool' display options show.
 */
function toolVariant(type: INodeType): INodeType {
	const description = { ...type.description, usableAsTool: undefined };
	return Object.create(type, {
		description: {
			value: {
				...description,
				name: `${description.name}Tool`,
				displayName: `${description.displayName} Tool`,
				inputs: [],
				outputs: [NodeConnectionTypes.AiTool],
			},
		},
	}) as INodeType;
}

/**
 * A stand-in for n8n 2.x's AI Agent (Tools Agent V3) with a scripted model: it asks the engine to run the tool calls
 * in its `calls` parameter (an engine request), then outputs what its model would read of each answer, as the
 * agent builds it (the tool's output items' json, else its error's message).
 */
const agentNode: INodeType = {
	description: {
		displayName: 'Test Agent',
		name: 'agent',
		group: ['transform'],
		version: 1,
		description: 'Calls its tools once each, as a model would',
		defaults: { name: 'AI Agent' },
		inputs: ['main', 'ai_tool'],
		outputs: ['main'],
		properties: [{ displayName: 'Calls', name: 'calls', type: 'json', default: '[]' }],
	},
	async execute(this: IExecuteFunctions, response?: EngineResponse) {
		const calls = JSON.parse(this.getNodeParameter('calls', 0) as string) as Array<{ tool: string; args: IDataObject }>;
		if (!response?.actionResponses?.length) {
			const actions = calls.map(({ tool, args }, i) => ({
				actionType: 'ExecutionNodeAction' as const,
				nodeName: tool,
				input: args,
				type: NodeConnectionTypes.AiTool,
				id: `call-${i}`,
				metadata: { itemIndex: 0 },
			}));
			return { actions, metadata: {} } satisfies EngineRequest;
		}
		return [
			response.actionResponses.map(({ action, data }) => {
				const items = data.data?.ai_tool?.[0]?.map((item) => item.json);
				const error = { error: data.error?.message ?? 'Unknown error', errorType: data.error?.name };
				const read = items?.length ? items : error;
				return { json: { tool: action.nodeName, read: JSON.stringify(read) } };
			}),
		];
	},
} as INodeType;

const nodeTypeMap: Record<string, INodeType> = {
	'test.startItems': startNode,
	'test.noOp': noOpNode,
	'test.agent': agentNode,
	...Object.fromEntries(
		PACKAGE.n8n.nodes.flatMap((file) => {
			const type = loadClass<INodeType>(file);
			const name = `${PACKAGE.name}.${type.description.name}`;
			return type.description.usableAsTool
				? [
						[name, type],
						[`${name}Tool`, toolVariant(type)],
					]
				: [[name, type]];
		}),
	),
};

/** Adds a node type the workflows may use (benchmarks add n8n's own HTTP Request node). */
export function registerNodeType(type: string, nodeType: INodeType): void {
	nodeTypeMap[type] = nodeType;
}

export const nodeTypes: INodeTypes = {
	getByName: (type) => nodeTypeMap[type],
	getByNameAndVersion: (type) => nodeTypeMap[type],
	getKnownTypes: () => ({}),
};

/** What n8n keeps in its database for one credential: here, in memory, with counters for the tests. */
export class CredentialStore extends ICredentialsHelper {
	private readonly data = new Map<string, { type: string; data: ICredentialDataDecryptedObject }>();

	/** How often n8n ran the credential's login (preAuthentication). */
	logins = 0;

	/** How often the stored credential was rewritten (a new token saved). */
	updates = 0;

	set(id: string, type: string, data: ICredentialDataDecryptedObject): void {
		this.data.set(id, { type, data: { ...data } });
	}

	stored(id: string): ICredentialDataDecryptedObject {
		return { ...this.data.get(id)!.data };
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string) {
		return credentialTypes[type].properties;
	}

	/** As n8n: stored values, with each field's default where none is stored. */
	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const entry = this.data.get(nodeCredentials.id ?? '');
		if (!entry || entry.type !== type) throw new Error(`No credential "${nodeCredentials.id}" of type ${type}`);
		const withDefaults: ICredentialDataDecryptedObject = {};
		for (const property of credentialTypes[type].properties) {
			withDefaults[property.name] = (entry.data[property.name] ?? property.default) as string;
		}
		return { ...withDefaults, ...entry.data };
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used by this package');
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	) {
		this.updates++;
		this.set(nodeCredentials.id!, type, data);
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	/** The rule n8n's CLI applies: log in when the expirable field is empty, when told it expired, or in a credential test. */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = credentialTypes[typeName];
		const expirable = type.properties.find((p) => p.type === 'hidden' && p.typeOptions?.expirable === true);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		const isTest = node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (credentials[expirable.name] !== '' && !credentialsExpired && !isTest) return undefined;
		this.logins++;
		const output = await type.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		if (node.credentials) {
			const details = node.credentials[typeName];
			await this.updateCredentials(details, typeName, {
				...this.stored(details.id!),
				...output,
			} as ICredentialDataDecryptedObject);
			return Object.assign(credentials, output);
		}
		return undefined;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	) {
		return (await credentialTypes[typeName].preAuthentication?.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
	}

	/** Generic authentication as n8n does it: `={{$credentials.x}}` expressions resolved into the request. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const auth = credentialTypes[typeName].authenticate;
		if (typeof auth === 'function') return await auth(credentials, requestOptions);
		if (!auth || auth.type !== 'generic') return requestOptions;
		for (const [outer, values] of Object.entries(auth.properties)) {
			const target: IDataObject = Reflect.get(requestOptions, outer) ?? {};
			Reflect.set(requestOptions, outer, target);
			for (const [key, value] of Object.entries(values as IDataObject)) {
				target[key] = workflow!.expression.getSimpleParameterValue(
					node!,
					value as string,
					'internal',
					{ $credentials: credentials },
					undefined,
					'',
				) as string;
			}
		}
		return requestOptions;
	}
}

export interface WorkflowJson {
	name?: string;
	nodes: INode[];
	connections: IWorkflowBase['connections'];
	staticData?: IDataObject;
	settings?: IWorkflowBase['settings'];
}

export function buildWorkflow(json: WorkflowJson, staticData?: IDataObject): Workflow {
	return new Workflow({
		id: 'wf-test',
		name: json.name ?? 'test',
		nodes: json.nodes,
		connections: json.connections,
		active: false,
		nodeTypes,
		staticData: staticData ?? json.staticData,
		settings: json.settings ?? {},
	});
}

function additionalDataFor(store: CredentialStore, hooks: ExecutionLifecycleHooks): IWorkflowExecuteAdditionalData {
	const unsupported = async () => {
		throw new Error('not available in tests');
	};
	const data: Partial<IWorkflowExecuteAdditionalData> = {
		credentialsHelper: store,
		hooks,
		executeWorkflow: unsupported,
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost/rest',
		instanceBaseUrl: 'http://localhost/',
		formBaseUrl: '',
		formWaitingBaseUrl: '',
		formTestBaseUrl: '',
		webhookBaseUrl: '',
		webhookWaitingBaseUrl: '',
		webhookTestBaseUrl: '',
		mcpBaseUrl: '',
		mcpTestBaseUrl: '',
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: unsupported,
	};
	return data as IWorkflowExecuteAdditionalData;
}

/** n8n keeps only a copy of a node's error in the run data; the harness also keeps the error as thrown. */
// A private method of WorkflowExecute, so reached by name.
const reportNodeExecutionError: (this: unknown, error: unknown, ...rest: unknown[]) => unknown = Reflect.get(
	WorkflowExecute.prototype,
	'reportNodeExecutionError',
);
let lastThrown: unknown;
Reflect.set(
	WorkflowExecute.prototype,
	'reportNodeExecutionError',
	function (this: unknown, error: unknown, ...rest: unknown[]) {
		lastThrown = error;
		return reportNodeExecutionError.call(this, error, ...rest);
	},
);

/** The error the last failed node threw, with its class (for `toBeInstanceOf`). */
export function lastThrownError(): unknown {
	return lastThrown;
}

/** Everything a thrown error holds as text, own properties included (n8n stores and shows several): for leak checks. */
export function errorText(error: unknown): string {
	return (
		JSON.stringify(error, Object.getOwnPropertyNames(error as object)) + String((error as Error | undefined)?.message)
	);
}

export interface RunResult {
	run: IRun;
	/** Output items of each node's first run, first output. */
	output(nodeName: string): INodeExecutionData[];
	/** The error that stopped the run, if any. */
	error?: Error & { description?: string; httpCode?: string; context?: IDataObject };
}

/** Executes a workflow once, from its start node (or from `startData` given to a trigger node). */
export async function runWorkflow(
	workflow: Workflow,
	store: CredentialStore,
	options: {
		mode?: WorkflowExecuteMode;
		startNode?: string;
		startData?: INodeExecutionData[][];
		/** Given the run's cancel, as n8n's Stop button calls it (the run then ends as cancelled). */
		onStart?: (cancel: () => void) => void;
	} = {},
): Promise<RunResult> {
	const mode = options.mode ?? 'manual';
	lastThrown = undefined;
	const hooks = new ExecutionLifecycleHooks(mode, 'exec-1', { id: workflow.id, name: workflow.name } as IWorkflowBase);
	let finished: (run: IRun) => void = () => {};
	const done = new Promise<IRun>((resolve) => (finished = resolve));
	hooks.addHandler('workflowExecuteAfter', (run) => finished(run));
	// The start is the named node, else the first node nothing connects into.
	const targets = new Set(
		Object.values(workflow.connectionsBySourceNode).flatMap((c) => (c.main ?? []).flat().map((t) => t?.node)),
	);
	const start = options.startNode
		? workflow.getNode(options.startNode)!
		: Object.values(workflow.nodes).find((n) => !targets.has(n.name))!;
	const runExecutionData: IRunExecutionData = {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: {},
			metadata: {},
			waitingExecution: {},
			waitingExecutionSource: null,
			nodeExecutionStack: [
				{ node: start, data: { main: options.startData ?? [[{ json: {} }]] }, source: null } as IExecuteData,
			],
		},
	} as IRunExecutionData;
	const execute = new WorkflowExecute(additionalDataFor(store, hooks), mode, runExecutionData);
	const running = execute.processRunExecutionData(workflow);
	options.onStart?.(() => running.cancel());
	await Promise.race([running, done]);
	const run = await done;
	return {
		run,
		output: (nodeName) => run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? [],
		error: run.data.resultData.error as RunResult['error'],
	};
}

/** n8n-core's own tool invocation: what an AI Agent calls when it uses a node as a tool (not in n8n-core's index). */
const { makeHandleToolInvocation } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- outside n8n-core's index (see above)
	require('n8n-core/dist/execution-engine/node-execution-context/utils/get-input-connection-data') as {
		makeHandleToolInvocation: (
			contextFactory: (runIndex: number) => SupplyDataContext,
			node: INode,
			nodeType: INodeType,
			runExecutionData: IRunExecutionData,
		) => (toolArgs: IDataObject) => Promise<string>;
	};

/**
 * One call of a node by an AI Agent, as n8n 2.x makes it: the node's `execute` in a SupplyDataContext whose one
 * input item is the tool's arguments (what `$fromAI()` reads). Returns the JSON string the agent receives; throws
 * what the agent would be told on failure.
 */
export async function runAsTool(
	workflow: Workflow,
	store: CredentialStore,
	toolName: string,
	toolArgs: IDataObject,
): Promise<string> {
	const tool = workflow.getNode(toolName)!;
	const agent: INode = {
		id: 'agent',
		name: 'AI Agent',
		type: 'test.agent',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const hooks = new ExecutionLifecycleHooks('manual', 'tool-1', {
		id: workflow.id,
		name: workflow.name,
	} as IWorkflowBase);
	const additionalData = additionalDataFor(store, hooks);
	const runExecutionData = { resultData: { runData: {} } } as IRunExecutionData;
	const executeData = { node: agent, data: { main: [[{ json: {} }]] }, source: null } as IExecuteData;
	const contextFactory = (runIndex: number) =>
		new SupplyDataContext(
			workflow,
			tool,
			additionalData,
			'manual',
			runExecutionData,
			runIndex,
			[],
			{},
			NodeConnectionTypes.AiTool,
			executeData,
			[],
			undefined,
			agent,
		);
	const invoke = makeHandleToolInvocation(
		contextFactory,
		tool,
		nodeTypes.getByName(tool.type) as INodeType,
		runExecutionData,
	);
	return await invoke(toolArgs);
}

/** n8n-core's own wrapping of a node as a tool (not in n8n-core's index): what the model is given to call. */
const { createNodeAsTool } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- outside n8n-core's index (see above)
	require('n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool') as {
		createNodeAsTool: (options: { node: INode; nodeType: INodeType; handleToolInvocation: () => Promise<string> }) => {
			response: { name: string; description: string; schema: { shape: Record<string, unknown> } };
		};
	};

/** What an AI Agent tells its model about a tool node: its name, its description and its arguments (from `$fromAI`). */
export function toolAsTheModelSeesIt(
	workflow: Workflow,
	toolName: string,
): { name: string; description: string; arguments: string[] } {
	const node = workflow.getNode(toolName)!;
	const { response } = createNodeAsTool({
		node,
		nodeType: nodeTypes.getByName(node.type) as INodeType,
		handleToolInvocation: async () => '',
	});
	return { name: response.name, description: response.description, arguments: Object.keys(response.schema.shape) };
}

/**
 * One scheduled poll of a trigger node, as n8n's scheduler runs it: PollContext + TriggersAndPollers, then,
 * if it emitted, a 'trigger' execution of the workflow with those items. Static data lives on the workflow.
 */
export async function pollOnce(
	workflow: Workflow,
	store: CredentialStore,
	triggerName: string,
	mode: 'trigger' | 'manual' = 'trigger',
	/** n8n's time budget for this poll (default: PollContext's own); null: none, as on n8n 1.x (no `getPollBudgetMs`). */
	budgetMs?: number | null,
): Promise<{ emitted: INodeExecutionData[] | null; run?: RunResult }> {
	const node = workflow.getNode(triggerName)!;
	const hooks = new ExecutionLifecycleHooks(mode, 'poll-1', { id: workflow.id, name: workflow.name } as IWorkflowBase);
	const context = new PollContext(
		workflow,
		node,
		additionalDataFor(store, hooks),
		mode,
		mode === 'manual' ? 'manual' : 'activate',
	);
	if (budgetMs === null) delete (context as { getPollBudgetMs?: () => number }).getPollBudgetMs;
	else if (budgetMs !== undefined) (context as { getPollBudgetMs: () => number }).getPollBudgetMs = () => budgetMs;
	const response = await Container.get(TriggersAndPollers).runPollFunction(workflow, node, context);
	if (!response) return { emitted: null };
	const run = await runWorkflow(workflow, store, { mode, startNode: triggerName, startData: response });
	return { emitted: response[0], run };
}

/**
 * The editor's "Test" button, done as n8n's CLI credentials tester does it: the credential's `test` request runs
 * through RoutingNode on a temporary NoOp node, and failures map to the message the user sees.
 */
export async function testCredential(
	store: CredentialStore,
	id: string,
	typeName = 'cloud4WiApi',
): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const type = credentialTypes[typeName];
	const testRequest = type.test!;
	const tempType: INodeType = {
		description: {
			...noOpNode.description,
			name: 'n8n-nodes-base.noOp',
			credentials: [{ name: typeName, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' },
			],
		},
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'n8n-nodes-base.noOp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [typeName]: { id, name: 'tested' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: { ...nodeTypes, getByName: () => tempType, getByNameAndVersion: () => tempType },
	});
	const hooks = new ExecutionLifecycleHooks('internal', 'test-1', { id: 'test', name: 'test' } as IWorkflowBase);
	const additionalData = additionalDataFor(store, hooks);
	const data = await store.getDecrypted(additionalData, { id, name: 'tested' }, typeName);
	const runExecutionData = { resultData: { runData: {} } } as IRunExecutionData;
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		runExecutionData,
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	try {
		await new RoutingNode(context, tempType, { id, name: 'tested', type: typeName, data }).runNode();
	} catch (caught) {
		const error = caught as Error & { cause?: { response?: { status: number; statusText?: string }; code?: string } };
		const status = error.cause?.response?.status;
		if (status !== undefined) {
			const rule = testRequest.rules?.find((r) => r.type === 'responseCode' && r.properties.value === status);
			if (rule) return { status: 'Error', message: (rule.properties as { message: string }).message };
			if (status < 199 || status > 299) {
				return {
					status: 'Error',
					message: error.cause?.response?.statusText || `Received HTTP status code: ${status}`,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: error.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/** Runs a node's loadOptions or listSearch method as the editor does when a dropdown opens. */
export async function loadOptionsOf(
	store: CredentialStore,
	node: INode,
	method: string,
	filter?: string,
): Promise<unknown> {
	const workflow = buildWorkflow({ nodes: [node], connections: {} });
	const hooks = new ExecutionLifecycleHooks('internal', 'options-1', { id: 'wf', name: 'wf' } as IWorkflowBase);
	const additionalData = additionalDataFor(store, hooks);
	(additionalData as { currentNodeParameters?: INode['parameters'] }).currentNodeParameters = node.parameters;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	const methods = nodeTypeMap[node.type].methods as Record<
		string,
		Record<string, (this: unknown, f?: string) => Promise<unknown>>
	>;
	const fn = methods.loadOptions?.[method] ?? methods.listSearch?.[method];
	return await fn.call(context, filter);
}

/** The time limits of the built package, the copy the engine runs (dist/): tests scale them down together. */
type Timing = typeof import('../../nodes/Cloud4Wi/shared/timing').timing;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const builtTiming = (require(path.join(ROOT, 'dist/nodes/Cloud4Wi/shared/timing')) as { timing: Timing }).timing;
const productionTiming = { ...builtTiming };

/**
 * Scales every time limit (login, retries' waits, back-off, poll and dropdown budgets) by `factor` for the tests of
 * this file; `scaleTimeLimits(1)` restores them. The relations between the limits, which the tests assert, stay.
 */
export function scaleTimeLimits(factor: number): void {
	for (const key of Object.keys(productionTiming) as Array<keyof Timing>) {
		builtTiming[key] = Math.round(productionTiming[key] * factor);
	}
}

/** `work` with every time limit scaled by `factor`, restored after it even if it throws (a test of retries' waits). */
export async function atScale<T>(factor: number, work: () => Promise<T>): Promise<T> {
	scaleTimeLimits(factor);
	try {
		return await work();
	} finally {
		scaleTimeLimits(1);
	}
}
