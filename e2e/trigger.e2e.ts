/**
 * The trigger in a real n8n 2.40.7, polled by n8n's own scheduler (`n8n start`, every minute): a published workflow,
 * Cloud4Wi Trigger (signup, visit) -> HTTP Request to a sink. Event batches are injected between polls
 * (e2e/trigger-events.ts): unwanted kinds, shared timestamps, a late and a back-dated event; tokens expire on the
 * way; n8n is stopped, events are made meanwhile, and it is started again. After each step the sink must hold
 * exactly the signup/visit events so far, each once. Then, with n8n still running, what the editor asks of it
 * over REST: the node list and the credential's Test button. About 5 minutes (it waits for polls).
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

import {
	importWorkflows,
	prepareN8n,
	readJson,
	ROOT,
	sleep,
	startSandbox,
	waitFor,
	workDir,
	type N8n,
	type Sandbox,
} from './fixtures';
import { inject, triggerChecks, type CheckResult as Check } from './trigger-events';

const CREDENTIAL = { id: 'c4wE2eCred000001', name: 'Cloud4Wi sandbox (e2e)' };
const POLL_WAIT_MS = 80_000; // a poll comes every minute; a little slack

let dir = '';
let sandbox: Sandbox;
let n8n: N8n;
let sink: Server;
let workflow: { id: string; name: string };

const sinkBodies = () => join(dir, 'sink.bodies');
const sinkCount = () => readFileSync(sinkBodies(), 'utf8').split('\n').filter(Boolean).length;
/** n8n names each poll in its debug log: that is how the waits below see polls. */
const pollCount = () => n8n.log().split(`Poll trigger initiated for workflow "${workflow.name}"`).length - 1;
let lastPollAt = 0;

/** Waits until the sink has taken no new body for 2 s (at least 4 s, at most 34 s). */
async function settle() {
	await sleep(4_000);
	const deadline = Date.now() + 30_000;
	let previous = -1;
	while (Date.now() < deadline && sinkCount() !== previous) {
		previous = sinkCount();
		await sleep(2_000);
	}
}

/** Waits for a poll that starts after this call, then for its execution to reach the sink. */
async function nextPoll() {
	const before = pollCount();
	await waitFor(
		`a poll within ${POLL_WAIT_MS / 1000} s (log: ${join(dir, 'n8n.log')})`,
		POLL_WAIT_MS,
		() => pollCount() > before,
	);
	lastPollAt = Date.now();
	await settle();
}

/** Saves the sandbox's request log and state under this stage's name, and clears the log. */
async function snapshot(stage: string) {
	writeFileSync(join(dir, `requests-${stage}.json`), JSON.stringify(await sandbox.admin('GET', '/__admin/requests')));
	writeFileSync(join(dir, `state-${stage}.json`), JSON.stringify(await sandbox.admin('GET', '/__admin/state')));
	await sandbox.admin('DELETE', '/__admin/requests');
}
const loginsAt = (stage: string) => readJson<{ logins?: number }>(join(dir, `state-${stage}.json`), {}).logins;

/** Errors and warnings n8n logged about the trigger workflow (failed polls, failed executions). */
function loggedProblems(): string[] {
	const relevant = new RegExp(`cloud4wi|${workflow.id}|${workflow.name}|poll`, 'i');
	return n8n
		.log()
		.split('\n')
		.filter((line) => /^\S+\s+(error|warn)\s/.test(line) && relevant.test(line) && !line.includes('api.n8n.io'))
		.map((line) => line.slice(0, 300));
}

const startN8n = (logFile: string) =>
	n8n.start({
		logLevel: 'debug',
		logFile: join(dir, logFile),
		until: (log) => {
			if (/problem activating|activation error/i.test(log))
				throw new Error(`n8n could not activate the trigger:\n${log.slice(-3000)}`);
			return log.includes('Activated trigger node "Cloud4Wi Trigger"');
		},
	});

/** One stage: `act` makes it happen, then every check of e2e/trigger-events.ts for it is a test. */
function stage(title: string, name: string, previous: string | undefined, act: () => Promise<void>) {
	describe(title, () => {
		let checks: Check[] = [];
		beforeAll(async () => {
			await act();
			checks = triggerChecks(dir, name, previous === undefined ? undefined : loginsAt(previous));
		}, 240_000);
		test.each(triggerChecks(join(ROOT, 'e2e', 'no-such-folder'), name).map((c) => c.name))('%s', (check) => {
			expect(checks.find((c) => c.name === check)?.problems).toEqual([]);
		});
	});
}

beforeAll(async () => {
	dir = workDir('trigger');
	sandbox = await startSandbox(dir);
	n8n = await prepareN8n('current', dir);
	await n8n.importCredential(sandbox, CREDENTIAL.id, CREDENTIAL.name);

	writeFileSync(sinkBodies(), '');
	sink = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const body = Buffer.concat(chunks)
				.toString('utf8')
				.replace(/\s*\n\s*/g, ' ')
				.trim();
			if (request.method === 'POST') appendFileSync(sinkBodies(), `${body}\n`);
			response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
		});
	});
	await new Promise<void>((done) => sink.listen(0, '127.0.0.1', done));
	const address = sink.address();
	const sinkUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/cloud4wi-event`;

	const template = readFileSync(join(ROOT, 'e2e', 'workflows', 'trigger.json'), 'utf8');
	const file = join(dir, 'trigger.json');
	writeFileSync(file, template.split('__SINK_URL__').join(sinkUrl));
	workflow = JSON.parse(readFileSync(file, 'utf8')) as { id: string; name: string };
	await importWorkflows(n8n, file);
	const published = await n8n.cli(['publish:workflow', `--id=${workflow.id}`]);
	if (published.code !== 0) throw new Error(`publish:workflow failed:\n${published.stdout}${published.stderr}`);

	await sandbox.admin('DELETE', '/__admin/requests');
	await startN8n('n8n.log');
	await snapshot('0');
}, 600_000);

afterAll(async () => {
	await n8n?.stop();
	await sandbox?.stop();
	await new Promise((done) => sink?.close(done));
}, 60_000);

test('n8n start activates the published trigger workflow; its first poll only reads Cloud4Wi’s clock (one login, one small read)', () => {
	expect(n8n.log()).toContain('Activated trigger node "Cloud4Wi Trigger"');
	const { requests } = readJson<{ requests: Array<{ method: string; path: string; query: object; status: number }> }>(
		join(dir, 'requests-0.json'),
		{ requests: [] },
	);
	expect(
		requests.map((r) => `${r.method} ${r.path.replace(/^\/v1\/organizations\/[^/]+/, '{org}')} ${r.status}`),
	).toEqual(['POST /v1/sts/login/services 200', 'GET {org}/events 200']);
	expect(requests[1].query).toEqual({ dateStart: expect.any(String), size: '1' });
	expect(loginsAt('0')).toBe(1);
	expect(readFileSync(sinkBodies(), 'utf8')).toBe('');
});

stage('batch a, then the next poll', '1', '0', async () => {
	await inject(sandbox.url, 'a', dir);
	await nextPoll();
	await snapshot('1');
});

stage('tokens expired, batch b, then the next poll', '2', '1', async () => {
	await sandbox.admin('POST', '/__admin/tokens/expire');
	await inject(sandbox.url, 'b', dir);
	await nextPoll();
	await snapshot('2');
});

stage('the poll after the late event shows', 'final', '2', async () => {
	const lateVisibleAt = Number(readFileSync(join(dir, 'late-visible-at'), 'utf8'));
	for (let i = 0; i < 3; i++) {
		await nextPoll();
		if (lastPollAt > lateVisibleAt + 1_000) break;
	}
	await snapshot('final');
});

test('first n8n run: n8n logged no error or warning about the trigger workflow', () => {
	expect(loggedProblems()).toEqual([]);
	expect(pollCount()).toBeGreaterThanOrEqual(3);
});

stage('n8n stopped, batch c made meanwhile, n8n started again', 'restart', 'final', async () => {
	await n8n.stop();
	await inject(sandbox.url, 'c', dir);
	await startN8n('n8n-restarted.log');
	await settle();
	await snapshot('restart');
});

stage('the first poll after the restart', 'restart-poll', 'restart', async () => {
	await nextPoll();
	await snapshot('restart-poll');
});

test('restarted n8n: n8n logged no error or warning about the trigger workflow', () => {
	expect(loggedProblems()).toEqual([]);
});

describe("the editor's view, over REST as the editor asks it", () => {
	const testCredential = (baseUrl: string, clientSecret: string) =>
		n8n.restRaw('POST', '/rest/credentials/test', {
			credentials: {
				id: CREDENTIAL.id,
				name: 't',
				type: 'cloud4WiApi',
				data: {
					baseUrl,
					clientKey: sandbox.credentials.clientKey,
					clientSecret,
					organizationId: sandbox.credentials.organizationId,
				},
			},
		});

	beforeAll(() => n8n.setupOwner());

	test('the node list offers Cloud4Wi, Cloud4Wi Trigger and the Cloud4Wi tool for AI agents', async () => {
		const types = (await n8n.restRaw('GET', '/types/nodes.json')).body as Array<{ name: string }>;
		expect(types.map((t) => t.name)).toEqual(
			expect.arrayContaining([
				'n8n-nodes-cloud4wi.cloud4Wi',
				'n8n-nodes-cloud4wi.cloud4WiTrigger',
				'n8n-nodes-cloud4wi.cloud4WiTool',
			]),
		);
	});

	test.each([
		['ok', () => sandbox.url, () => sandbox.credentials.clientSecret, { status: 'OK' }],
		[
			'a wrong secret',
			() => sandbox.url,
			() => 'wrong-secret-e2e',
			{ status: 'Error', message: expect.stringContaining('Invalid client key or secret') },
		],
		[
			'an unreachable host',
			() => 'http://127.0.0.1:9',
			() => sandbox.credentials.clientSecret,
			{
				status: 'Error',
				message: expect.stringContaining(
					'no answer from http://127.0.0.1:9/v1/sts/login/services (connection refused)',
				),
			},
		],
		[
			'plain http to a remote host',
			() => 'http://explore.cloud4wi.com',
			() => sandbox.credentials.clientSecret,
			{ status: 'Error', message: expect.stringContaining('must start with https://') },
		],
	])("the credential's Test button, %s", async (_case, baseUrl, secret, expected) => {
		const answer = await testCredential(baseUrl(), secret());
		expect(answer.status).toBe(200);
		expect((answer.body as { data: unknown }).data).toMatchObject(expected);
		expect(JSON.stringify(answer.body)).not.toContain(secret());
	});
});
