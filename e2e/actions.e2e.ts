/**
 * Every operation of the action node in a real n8n, on both lines (2.40.7 and 1.123.81): the action workflows
 * (e2e/workflows/actions, written by make-workflows.js) run one after another in one `n8n start`, as the owner runs
 * them (POST /rest/workflows/:id/run); their run data and the requests the sandbox saw are checked by
 * e2e/check-actions.ts. Then, with `n8n execute` since separate processes are the point: the token-expiry workflow
 * three times across an expiry, the service answering 403 and then 401, and the learned-limit workflow twice.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

import { actionChecks } from './check-actions';
import { parseExecuteOutput, runError, runFromEditor } from './execute-output';
import type { CheckResult as Check } from './trigger-events';
import {
	importWorkflows,
	N8N_VERSIONS,
	prepareN8n,
	ROOT,
	startSandbox,
	workDir,
	type N8n,
	type N8nLine,
	type Sandbox,
} from './fixtures';

const ACTIONS = join(ROOT, 'e2e', 'workflows', 'actions');
const EXPIRY = join(ROOT, 'e2e', 'workflows', 'expiry.json');
const LEARNED_LIMIT = join(ROOT, 'e2e', 'workflows', 'learned-limit.json');
const ADAPTER = join(ROOT, 'e2e', 'workflows', 'adapter.json');
const CREDENTIAL = { id: 'c4wE2eCred000001', name: 'Cloud4Wi sandbox (e2e)' }; // as the workflow files name it
const LOGIN = '/v1/sts/login/services';
const actionFiles = () =>
	readdirSync(ACTIONS)
		.filter((f) => f.endsWith('.json'))
		.sort();

interface LoggedRequest {
	method: string;
	path: string;
	status: number;
	at: number;
}

/** The check names, known before anything runs: the checks run over an empty folder all fail, but are all there. */
const CHECK_NAMES = actionChecks(join(ROOT, 'e2e', 'no-such-folder')).map((c) => c.name);

describe.each(Object.keys(N8N_VERSIONS) as N8nLine[])('n8n %s line', (line) => {
	const { version } = N8N_VERSIONS[line];
	let dir = '';
	let sandbox: Sandbox;
	let n8n: N8n;
	let checks: Check[] = [];
	const requests = async () =>
		(await sandbox.admin<{ requests: LoggedRequest[] }>('GET', '/__admin/requests')).requests;
	/** `n8n execute` of a workflow `times` times, each a new process; `each` gets the requests it caused and its outcome. */
	async function executeTimes(
		workflowId: string,
		times: number,
		name: string,
		each: (
			i: number,
			seen: LoggedRequest[],
			ran: { code: number | null; error: string | null; contacts: number },
		) => Promise<void>,
	) {
		for (let i = 1; i <= times; i++) {
			await sandbox.admin('DELETE', '/__admin/requests');
			const result = await n8n.cli(['execute', `--id=${workflowId}`, '--rawOutput']);
			writeFileSync(join(dir, `${name}-${i}.out`), result.stdout + result.stderr);
			const { run } = parseExecuteOutput(result.stdout);
			await each(i, await requests(), {
				code: result.code,
				error: run ? runError(run) : 'no run data',
				contacts: run?.data?.resultData?.runData?.Contacts?.[0]?.data?.main?.[0]?.length ?? 0,
			});
		}
	}
	const state = (file: string) =>
		sandbox.admin('GET', '/__admin/state').then((s) => writeFileSync(join(dir, file), JSON.stringify(s)));

	beforeAll(async () => {
		dir = workDir(`actions-${version}`);
		sandbox = await startSandbox(dir);
		n8n = await prepareN8n(line, dir);
		await n8n.importCredential(sandbox, CREDENTIAL.id, CREDENTIAL.name);
		// One import for all of them: every n8n CLI command is a start-up of several seconds.
		const workflows = join(dir, 'workflows');
		mkdirSync(workflows);
		for (const file of [...actionFiles().map((f) => join(ACTIONS, f)), EXPIRY, LEARNED_LIMIT, ADAPTER])
			copyFileSync(file, join(workflows, basename(file)));
		await importWorkflows(n8n, workflows);

		// The action workflows in one `n8n start`, one after another as the owner runs them, each with the requests it
		// caused, for check-actions.ts.
		await n8n.start();
		await n8n.setupOwner();
		await state('state-start.json');
		for (const file of actionFiles()) {
			const key = file.replace(/\.json$/, '');
			const { id } = JSON.parse(readFileSync(join(ACTIONS, file), 'utf8')) as { id: string };
			if (key.includes('token-revoke')) await state('state-before-revoke.json');
			await sandbox.admin('DELETE', '/__admin/requests');
			try {
				const { status, run } = await runFromEditor(n8n, id, 'Start');
				writeFileSync(join(dir, `${key}.run.json`), JSON.stringify({ ...run, status }));
			} catch (error) {
				writeFileSync(join(dir, `${key}.error`), String((error as Error).stack ?? error));
			}
			await sandbox
				.admin('GET', '/__admin/requests')
				.then((r) => writeFileSync(join(dir, `${key}.requests.json`), JSON.stringify(r)));
		}
		await state('state-end.json');
		await n8n.stop(); // the CLI commands below open the same database
		const exported = await n8n.cli([
			'export:credentials',
			'--all',
			'--decrypted',
			`--output=${join(dir, 'credentials.json')}`,
		]);
		if (exported.code !== 0) throw new Error(`export:credentials failed: ${exported.stderr}`);
		checks = actionChecks(dir);
	}, 900_000);

	afterAll(async () => {
		await n8n?.stop();
		await sandbox?.stop();
	}, 60_000);

	test('the package is installed as users install it: every file package.json names for n8n is there', () => {
		const manifest = JSON.parse(readFileSync(join(n8n.packageDir, 'package.json'), 'utf8')) as {
			n8n: { nodes: string[]; credentials: string[] };
		};
		const files = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
		expect(files).toHaveLength(3);
		for (const file of files) expect(readFileSync(join(n8n.packageDir, file)).length).toBeGreaterThan(0);
	});

	test.each(CHECK_NAMES)('%s', (name) => {
		const check = checks.find((c) => c.name === name);
		expect(check).toBeDefined();
		expect(check!.problems).toEqual([]);
	});

	/** Three executions of the expiry workflow, every token expired after the first; the service refuses with `status`. */
	describe.each([403, 401])('token expiry across executions, expired token answered %i', (status) => {
		const runs: Array<{
			code: number | null;
			error: string | null;
			contacts: number;
			logins: number;
			refused: number;
		}> = [];
		beforeAll(async () => {
			await sandbox.admin('POST', '/__admin/expired-status', { status });
			await executeTimes('c4wE2eExpiry0001', 3, `expiry-${status}`, async (i, seen, ran) => {
				runs.push({
					...ran,
					logins: seen.filter((r) => r.path === LOGIN).length,
					refused: seen.filter((r) => r.status === status).length,
				});
				if (i === 1) await sandbox.admin('POST', '/__admin/tokens/expire');
			});
		}, 600_000);

		test('all three executions succeed, each with its 5 contacts', () => {
			expect(runs.map(({ code, error, contacts }) => ({ code, error, contacts }))).toEqual(
				Array(3).fill({ code: 0, error: null, contacts: 5 }),
			);
		});
		test('after the expiry: 1 refused request, then exactly 1 login', () => {
			expect({ refused: runs[1].refused, logins: runs[1].logins }).toEqual({ refused: 1, logins: 1 });
		});
		test('the next execution reuses the renewed token stored in the credential', () => {
			expect({ refused: runs[2].refused, logins: runs[2].logins }).toEqual({ refused: 0, logins: 0 });
		});
	});

	/**
	 * What nodes/Cloud4Wi/shared/n8nLogin.ts relies on in this n8n (test/transport/sign-in.test.ts checks it in n8n-core): with the
	 * token emptied, n8n logs in, stores the token and sends the request through the credential's authenticate, which
	 * tells the requests waiting for the token. Five contact reads meet an expired token at once; one carries the login
	 * through n8n, the other four must go on once the token is known, not after the carried read's answer (2 s).
	 */
	describe('a login carried by one request while four wait for it (the n8n adapter)', () => {
		const runs: Array<{ code: number | null; error: string | null; logins: number; reads: LoggedRequest[] }> = [];
		const READ = /^\/v2\/customers\/[0-9a-f]{24}$/;
		beforeAll(async () => {
			await sandbox.admin('POST', '/__admin/expired-status', { status: 403 }); // as the vendor documents
			await sandbox.admin('POST', '/__admin/faults', {
				method: 'GET',
				path: '^/v2/customers/organizations/',
				expireTokensAfter: true,
			});
			// The five reads with the expired token are held 1 s before their 403, so that all five are sent before n8n
			// hears of the first (on a busy host it heard after two, and sent the other three with the new token only).
			await sandbox.admin('POST', '/__admin/faults', { method: 'GET', path: READ.source, delayMs: 1000, times: 5 });
			// The five sent with the new token take 2 s to answer.
			await sandbox.admin('POST', '/__admin/faults', { method: 'GET', path: READ.source, delayMs: 2000, times: 5 });
			await executeTimes('c4wE2eAdapter001', 2, 'adapter', async (_, seen, ran) => {
				const reads = seen.filter((r) => r.method === 'GET' && READ.test(r.path));
				runs.push({ code: ran.code, error: ran.error, logins: seen.filter((r) => r.path === LOGIN).length, reads });
			});
		}, 300_000);

		test('the run succeeds: the five reads refused for the expired token are sent again with one login', () => {
			expect({ code: runs[0].code, error: runs[0].error, logins: runs[0].logins }).toEqual({
				code: 0,
				error: null,
				logins: 1,
			});
			expect(runs[0].reads.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 200, 200, 200, 200, 200]);
		});
		test('the four waiting reads go on as soon as n8n has the token, not after the answer of the read that carried it', () => {
			const sent = runs[0].reads.slice(5).map((r) => r.at);
			expect(Math.max(...sent) - Math.min(...sent)).toBeLessThan(1_000);
		});
		test('n8n stored the token: the next execution, a new process, logs in no more', () => {
			expect({ code: runs[1].code, error: runs[1].error, logins: runs[1].logins }).toEqual({
				code: 0,
				error: null,
				logins: 0,
			});
		});
	});

	/**
	 * An expired token whose login Cloud4Wi refuses for its rate limit, asking for 11 s: longer than a login waits (10 s),
	 * as a per-minute limit asks. The credential reports the Retry-After to the run through the adapter's module, and the
	 * run waits it out; were n8n to load the credential and the node apart, the run would fail with the login's 429.
	 */
	describe('a login refused for the rate limit for longer than a login waits (the n8n adapter)', () => {
		const runs: Array<{ code: number | null; error: string | null; contacts: number; logins: LoggedRequest[] }> = [];
		beforeAll(async () => {
			await sandbox.admin('DELETE', '/__admin/faults');
			await sandbox.admin('POST', '/__admin/tokens/expire');
			await sandbox.admin('POST', '/__admin/faults', { method: 'POST', path: LOGIN, status: 429, retryAfter: 11 });
			await executeTimes('c4wE2eExpiry0001', 1, 'login-limited', async (_, seen, ran) => {
				runs.push({ ...ran, logins: seen.filter((r) => r.path === LOGIN) });
			});
		}, 300_000);

		test('the run waits out the Retry-After, logs in again and succeeds', () => {
			const [run] = runs;
			expect({ code: run.code, error: run.error, contacts: run.contacts }).toEqual({
				code: 0,
				error: null,
				contacts: 5,
			});
			expect(run.logins.map((r) => r.status)).toEqual([429, 200]);
			expect(run.logins[1].at - run.logins[0].at).toBeGreaterThanOrEqual(11_000);
		});
	});

	/** Two `n8n execute` runs of every contact's opt-ins against a service that takes 4 at once: two processes, one workflow. */
	describe('a limit the service showed one execution is known to the next, a new process', () => {
		const runs: Array<{
			code: number | null;
			error: string | null;
			contacts: number;
			written: number;
			refused: number;
		}> = [];
		beforeAll(async () => {
			await sandbox.admin('POST', '/__admin/load', { latencyMs: 20, maxInFlight: 4, retryAfterS: 1 });
			await executeTimes('c4wE2eLimits0001', 2, 'learned-limit', async (_, seen, ran) => {
				runs.push({
					...ran,
					written: seen.filter((r) => r.method === 'PUT' && r.status === 200).length,
					refused: seen.filter((r) => r.status === 429).length,
				});
			});
			await sandbox.admin('POST', '/__admin/load', { latencyMs: 0, maxInFlight: 0 });
		}, 300_000);

		test("both executions write every contact's opt-in once", () => {
			expect(runs.map(({ code, error, contacts, written }) => ({ code, error, written: written - contacts }))).toEqual(
				Array(2).fill({ code: 0, error: null, written: 0 }),
			);
			expect(runs[0].contacts).toBeGreaterThan(40);
		});
		// A first count can read one high on a busy n8n (docs/rate-limits.md), so the second may still meet a refusal; what
		// the code guarantees is that it starts from the stored limit, never above it, instead of climbing from the start.
		test('the first finds the limit (429s); the second starts from it, from the workflow n8n saved: fewer refusals', () => {
			expect(runs[0].refused).toBeGreaterThan(0);
			expect(runs[1].refused).toBeLessThan(runs[0].refused);
		});
	});
});
