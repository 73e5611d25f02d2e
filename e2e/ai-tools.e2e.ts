/**
 * The Cloud4Wi tools in a real n8n, offline: n8n's own AI Agent with n8n's OpenAI Chat Model (v1.2, chat
 * completions) whose credential's Base URL points at a scripted model (e2e/model-stand-in.ts), on both n8n lines;
 * and, in n8n 2.40.7, n8n's MCP Server Trigger serving the tools to the MCP client n8n ships
 * (@modelcontextprotocol/sdk, streamable HTTP). One `n8n start` per line: the agent runs as the editor's button
 * runs it, the MCP workflow is published and served by the same start.
 * The model finds a seeded guest by email, withdraws her marketing consent, asks for a contact that does not exist
 * and answers. Checked: the requests Cloud4Wi (the sandbox) received, what the model was told (each tool's name,
 * description and parameters, each tool answer) and the agent's output.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { nodeRun, runError, runFromEditor, type Json } from './execute-output';
import { importWorkflows, N8N_VERSIONS, prepareN8n, sandboxCredential, sandboxToken } from './fixtures';
import { startSandbox, workDir, type N8n, type N8nLine, type Sandbox } from './fixtures';
import { startModelStandIn, toolAnswers, type ModelStandIn, type Script } from './model-stand-in';
import { expectTool, leakedSecrets, toolAnswerShapeProblems } from './tool-expectations';

const AGENT = join(__dirname, 'workflows', 'agent.json');
const MCP = join(__dirname, 'workflows', 'mcp.json');
const MCP_ID = 'c4wE2eMcpServer1';
const CLOUD4WI = { id: 'c4wE2eCred000001', name: 'Cloud4Wi sandbox (e2e)' }; // as the workflow files name them
const MODEL = { id: 'c4wE2eModel00001', name: 'Model stand-in (e2e)', apiKey: 'sk-e2e-stand-in-key' };
const LOGIN = '/v1/sts/login/services';
/** No seeded contact has this ID (checked before the run). */
const MISSING = '0123456789abcdef01234567';
/** The agent's version: the newest each line has (2.40.7 has 3.1, as the file says; 1.123.81 has 3). */
const AGENT_VERSION: Record<N8nLine, number> = { current: 3.1, previous: 3 };
const contactId = { type: 'string', description: 'The ID (cid) of the contact' };
/** The tools as the workflows define them; n8n names a tool after its node, other characters than [A-Za-z0-9_-] as _. */
const TOOLS = {
	find: {
		name: 'Find_Contact_By_Email',
		operation: 'getAll',
		schema: { email: { type: 'string', description: 'The email address of the guest' } },
	},
	consent: {
		name: 'Set_Marketing_Consent',
		operation: 'updateOptIns',
		schema: {
			contactId,
			accepted: { type: 'boolean', description: 'Whether the guest accepts marketing communications' },
		},
	},
	get: { name: 'Get_Contact', operation: 'get', schema: { contactId } },
};

interface Guest {
	cid: string;
	email: string;
}
interface LoggedRequest {
	method: string;
	path: string;
	query: Record<string, unknown>;
	body: unknown;
	status: number;
	authorization?: string;
}

/** The ID of the record with this email in a tool's answer, whatever its shape (full or simplified records). */
function idIn(answer: string, email: string): string {
	let found = '';
	const visit = (value: unknown): void => {
		if (found || value === null || typeof value !== 'object') return;
		const record = value as Record<string, unknown>;
		if (typeof record.email === 'string' && record.email.toLowerCase() === email.toLowerCase())
			found = String(record.cid ?? record.id ?? record.contactId ?? '');
		Object.values(record).forEach(visit);
	};
	try {
		visit(JSON.parse(answer));
	} catch {
		// not JSON: nothing found, and the checks of the requests say so
	}
	return found || 'no-contact-with-this-email-in-the-answer';
}

const finalAnswer = (guest: Guest) =>
	`Withdrew the marketing consent of ${guest.email}. There is no contact ${MISSING} in Cloud4Wi.`;

/** The model: find the guest, withdraw her marketing consent (the ID read from the first answer), the missing one, done. */
function script(guest: Guest): Script {
	return [
		() => ({ tool: TOOLS.find.name, args: { email: guest.email } }),
		(request) => ({
			tool: TOOLS.consent.name,
			args: { contactId: idIn(toolAnswers(request)[0].answer, guest.email), accepted: false },
		}),
		() => ({ tool: TOOLS.get.name, args: { contactId: MISSING } }),
		() => ({ answer: finalAnswer(guest) }),
	];
}

/** Calls the sandbox's API directly, with a token of its own. */
async function sandboxApi<T>(sandbox: Sandbox, path: string): Promise<{ status: number; body: T }> {
	const token = await sandboxToken(sandbox.url, sandbox.credentials);
	const answer = await fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
	return { status: answer.status, body: (await answer.json()) as T };
}

/** A seeded contact with an email who accepted marketing communications. */
async function seededGuest(sandbox: Sandbox): Promise<Guest> {
	const { organizationId } = sandbox.credentials;
	const { body } = await sandboxApi<{ customers: Guest[] }>(
		sandbox,
		`/v2/customers/organizations/${organizationId}?hasEmail=true&mktgCommunications=true&size=5`,
	);
	const [guest] = body.customers;
	if (!guest?.email) throw new Error(`the sandbox has no contact with an email and marketing opt-in`);
	const missing = await sandboxApi(sandbox, `/v2/customers/${MISSING}`);
	if (missing.status !== 404) throw new Error(`the sandbox has a contact ${MISSING}`);
	return { cid: guest.cid, email: guest.email };
}

/** Whether the contact accepts marketing communications, as the sandbox has it now. */
async function marketingOptIn(sandbox: Sandbox, cid: string): Promise<unknown> {
	const { body } = await sandboxApi<{ customer: { policies?: Array<{ name: string; accepted: unknown }> } }>(
		sandbox,
		`/v2/customers/${cid}`,
	);
	return body.customer.policies?.find((p) => p.name === 'mktgCommunications')?.accepted;
}

/** The MCP client n8n 2.40.7 ships (not a dependency of this package): typed as far as these tests use it. */
interface McpClient {
	connect(transport: unknown): Promise<void>;
	listTools(): Promise<{ tools: Array<{ name: string; description?: string; inputSchema: unknown }> }>;
	callTool(call: { name: string; arguments: Record<string, unknown> }): Promise<{
		isError?: boolean;
		content: Array<{ type: string; text?: string }>;
	}>;
	close(): Promise<void>;
}
async function connectMcp(url: string): Promise<McpClient> {
	const sdk = join(N8N_VERSIONS.current.home, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'cjs', 'client');
	/* eslint-disable @typescript-eslint/no-require-imports */
	const { Client } = require(join(sdk, 'index.js')) as { Client: new (info: object) => McpClient };
	const { StreamableHTTPClientTransport } = require(join(sdk, 'streamableHttp.js')) as {
		StreamableHTTPClientTransport: new (url: URL) => unknown;
	};
	/* eslint-enable @typescript-eslint/no-require-imports */
	const client = new Client({ name: 'cloud4wi-e2e', version: '1.0.0' });
	await client.connect(new StreamableHTTPClientTransport(new URL(url)));
	return client;
}
const textOf = (result: { content: Array<{ text?: string }> }) => result.content.map((c) => c.text ?? '').join('\n');

describe.each(Object.keys(N8N_VERSIONS) as N8nLine[])('n8n %s line', (line) => {
	const { version } = N8N_VERSIONS[line];
	let dir = '';
	let sandbox: Sandbox;
	let model: ModelStandIn;
	let n8n: N8n;
	let guest: Guest;
	let agent: { status: string; run: Json };
	let seen: LoggedRequest[] = [];
	const requests = async () =>
		(await sandbox.admin<{ requests: LoggedRequest[] }>('GET', '/__admin/requests')).requests;
	/** What must never reach a model: the credential's key and secret, and every token n8n sent to Cloud4Wi. */
	const secrets = (logged: LoggedRequest[]) => [
		sandbox.credentials.clientKey,
		sandbox.credentials.clientSecret,
		...logged.map((r) => (r.authorization ?? '').replace(/^Bearer /, '')),
	];

	beforeAll(async () => {
		dir = workDir(`ai-tools-${version}`);
		sandbox = await startSandbox(dir);
		guest = await seededGuest(sandbox);
		model = await startModelStandIn(script(guest));
		n8n = await prepareN8n(line, dir);
		await n8n.importCredentials([
			sandboxCredential(sandbox, CLOUD4WI.id, CLOUD4WI.name),
			{ id: MODEL.id, name: MODEL.name, type: 'openAiApi', data: { apiKey: MODEL.apiKey, url: model.url } },
		]);
		const workflows = join(dir, 'workflows');
		mkdirSync(workflows);
		const agentWorkflow = JSON.parse(
			readFileSync(AGENT, 'utf8')
				.split('__GUEST_EMAIL__')
				.join(guest.email)
				.split('__MISSING_CONTACT_ID__')
				.join(MISSING),
		) as { id: string; nodes: Array<{ name: string; type: string; typeVersion: number }> };
		agentWorkflow.nodes.find((n) => n.name === 'AI Agent')!.typeVersion = AGENT_VERSION[line];
		writeFileSync(join(workflows, 'agent.json'), JSON.stringify(agentWorkflow));
		if (line === 'current') copyFileSync(MCP, join(workflows, 'mcp.json'));
		await importWorkflows(n8n, workflows);

		await sandbox.admin('DELETE', '/__admin/requests');
		await n8n.start();
		await n8n.setupOwner();
		agent = await runFromEditor(n8n, agentWorkflow.id, 'Start', 120_000);
		seen = await requests();
		writeFileSync(join(dir, 'agent.run.json'), JSON.stringify(agent));
		writeFileSync(join(dir, 'agent.requests.json'), JSON.stringify(seen));
		writeFileSync(join(dir, 'model.requests.json'), JSON.stringify(model.requests));
	}, 600_000);

	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
		await model?.stop();
	}, 60_000);

	describe("n8n's AI Agent with three Cloud4Wi tools and a scripted model", () => {
		test("the run succeeds and the agent's output is the model's final answer", () => {
			expect({ status: agent.status, error: runError(agent.run) }).toEqual({ status: 'success', error: null });
			expect(nodeRun(agent.run, 'AI Agent').items.map((item: Json) => item.output)).toEqual([finalAnswer(guest)]);
		});

		test('the model was asked 4 times (3 tool calls, then the answer), each at POST /v1/chat/completions', () => {
			expect(model.requests.map((r) => r.path)).toEqual(Array(4).fill('/v1/chat/completions'));
		});

		test('Cloud4Wi received one login, the list filtered by the email, the opt-ins PUT withdrawing marketing, the GET of the missing contact', async () => {
			const { organizationId } = sandbox.credentials;
			expect(seen.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
				{ method: 'POST', path: LOGIN, status: 200 },
				{ method: 'GET', path: `/v2/customers/organizations/${organizationId}`, status: 200 },
				{ method: 'PUT', path: `/v1/customers/${guest.cid}/policies`, status: 200 },
				{ method: 'GET', path: `/v2/customers/${MISSING}`, status: 404 },
			]);
			const { size, sid, ...filters } = seen[1].query;
			expect({ filters, paged: size !== undefined || sid !== undefined }).toEqual({
				filters: { email: guest.email },
				paged: true,
			});
			expect(seen[2].body).toEqual({ policies: [{ policyKey: 'mktgCommunications', accepted: false }] });
			expect(await marketingOptIn(sandbox, guest.cid)).toBe(false);
		});

		test('every request offered the model the three tools, each with its description and parameters', () => {
			for (const { body } of model.requests) {
				expect(body.tools?.map((t) => t.function.name).sort()).toEqual(
					Object.values(TOOLS)
						.map((t) => t.name)
						.sort(),
				);
			}
			for (const tool of Object.values(TOOLS)) {
				const offered = model.requests[0].body.tools!.find((t) => t.function.name === tool.name)!.function;
				expectTool(n8n.packageDir, { ...offered, schema: offered.parameters }, { resource: 'contact', ...tool });
			}
		});

		test("the model was told each tool's answer: the contact found, the consent withdrawn, the service's not-found", () => {
			const answers = toolAnswers(model.requests[3].body);
			// n8n 2.x replays each call with its call id among the arguments
			const called = answers.map(({ tool, args }) => ({ tool, args: { ...(args as object), id: undefined } }));
			expect(called).toEqual([
				{ tool: TOOLS.find.name, args: { email: guest.email } },
				{ tool: TOOLS.consent.name, args: { contactId: guest.cid, accepted: false } },
				{ tool: TOOLS.get.name, args: { contactId: MISSING } },
			]);
			const [found, consent, missing] = answers.map((a) => a.answer);
			expect(found).toContain(guest.cid);
			expect(found).toContain(guest.email);
			expect(consent).toContain(guest.cid);
			expect(missing).toContain(`Contact not found: ${MISSING}`);
			expect(toolAnswerShapeProblems({ found, missing, missingId: MISSING })).toEqual([]);
		});

		test('no secret of the credential and no token reached the model', () => {
			expect(leakedSecrets(JSON.stringify(model.requests), secrets(seen))).toEqual([]);
		});
	});

	if (line !== 'current') return;

	describe("n8n's MCP Server Trigger serving two Cloud4Wi tools to an outside MCP client", () => {
		let listed: Awaited<ReturnType<McpClient['listTools']>>['tools'] = [];
		let found: Awaited<ReturnType<McpClient['callTool']>>;
		let missing: Awaited<ReturnType<McpClient['callTool']>>;
		let called: LoggedRequest[] = [];
		beforeAll(async () => {
			// Published as the editor's Publish button does: a CLI start-up less than `n8n publish:workflow`
			const { versionId } = await n8n.rest<{ versionId: string }>('GET', `/rest/workflows/${MCP_ID}`);
			await n8n.rest('POST', `/rest/workflows/${MCP_ID}/activate`, { versionId });
			await sandbox.admin('DELETE', '/__admin/requests');
			const client = await connectMcp(`${n8n.url}/mcp/cloud4wi-e2e`);
			try {
				listed = (await client.listTools()).tools;
				found = await client.callTool({ name: TOOLS.find.name, arguments: { email: guest.email } });
				missing = await client.callTool({ name: TOOLS.get.name, arguments: { contactId: MISSING } });
			} finally {
				await client.close();
			}
			called = await requests();
			writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ listed, found, missing, called }));
		}, 120_000);

		test('the client lists the two tools, each with its description and input schema', () => {
			expect(listed.map((t) => t.name).sort()).toEqual([TOOLS.find.name, TOOLS.get.name].sort());
			for (const tool of [TOOLS.find, TOOLS.get]) {
				const offered = listed.find((t) => t.name === tool.name)!;
				expectTool(n8n.packageDir, { ...offered, schema: offered.inputSchema }, { resource: 'contact', ...tool });
			}
		});

		test('a call that succeeds answers the contact found; a call for a missing contact answers the service’s not-found', () => {
			expect({ isError: found.isError ?? false }).toEqual({ isError: false });
			expect(textOf(found)).toContain(guest.cid);
			expect(textOf(missing)).toContain(`Contact not found: ${MISSING}`);
			expect(
				toolAnswerShapeProblems({ found: textOf(found), missing: textOf(missing), missingId: MISSING }),
			).toEqual([]);
			expect(leakedSecrets(textOf(found) + textOf(missing), secrets([...seen, ...called]))).toEqual([]);
		});

		test('Cloud4Wi received the list filtered by the email and the GET of the missing contact, with the stored token', () => {
			expect(called.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
				{ method: 'GET', path: `/v2/customers/organizations/${sandbox.credentials.organizationId}`, status: 200 },
				{ method: 'GET', path: `/v2/customers/${MISSING}`, status: 404 },
			]);
			expect(called[0].query.email).toBe(guest.email);
		});
	});
});
