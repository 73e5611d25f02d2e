/**
 * Fixtures of the end-to-end layer: the sandbox (the stand-in Cloud4Wi, in its own process, as `npm run sandbox`
 * starts it) and a real n8n with this package installed the way users install it (`npm install <tarball>` in the
 * user folder's `.n8n/nodes`). scripts/e2e-n8n.sh installs n8n, packs the package and installs the tarball once per
 * n8n version (E2E_NODES_DIR), then runs these tests, two suites at a time.
 * Every process started here runs in its own process group and is stopped by the suite that started it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..');
/** Work files of the whole run (logs, n8n output, request logs), kept for a look afterwards. */
export const RUN_DIR = process.env.E2E_RUN_DIR ?? join(ROOT, '.e2e', 'run');

/** The n8n versions under test: the current line and the 1.x line still in use (installed by scripts/n8n-lib.sh). */
export const N8N_VERSIONS = {
	current: { version: '2.40.7', home: process.env.E2E_N8N_HOME ?? join(ROOT, '.tools', 'n8n') },
	previous: { version: '1.123.81', home: process.env.E2E_N8N1_HOME ?? join(ROOT, '.tools', 'n8n-1.123.81') },
} as const;
export type N8nLine = keyof typeof N8N_VERSIONS;

export const OWNER = { email: 'owner@example.com', password: 'E2e-password-123' };
export const ENCRYPTION_KEY = 'e2e-fixed-encryption-key-not-secret';

export interface CommandResult {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** A work folder of one suite, emptied first. */
export function workDir(name: string): string {
	const dir = join(RUN_DIR, name);
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	return dir;
}

export function freePort(): Promise<number> {
	return new Promise((done, fail) => {
		const server = createServer();
		server.once('error', fail);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => done(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Waits until `ready()` is true, every 250 ms, at most `ms`; throws `what` otherwise. */
export async function waitFor(what: string, ms: number, ready: () => boolean | Promise<boolean>): Promise<void> {
	const deadline = Date.now() + ms;
	for (;;) {
		if (await ready()) return;
		if (Date.now() > deadline) throw new Error(`timed out after ${ms / 1000} s: ${what}`);
		await sleep(250);
	}
}

/** A process in its own group, output to a log file; `stop()` ends the group (TERM, then KILL). */
class Background {
	private exited = false;
	private output = '';
	constructor(
		private readonly child: ChildProcess,
		readonly logFile: string,
	) {
		writeFileSync(logFile, '');
		const keep = (chunk: Buffer) => {
			this.output += chunk.toString('utf8');
			appendFileSync(logFile, chunk); // not the whole log again on every chunk
		};
		child.stdout?.on('data', keep);
		child.stderr?.on('data', keep);
		child.once('exit', () => (this.exited = true));
	}

	get running() {
		return !this.exited;
	}

	/** What it printed so far, without colour codes. */
	log(): string {
		// eslint-disable-next-line no-control-regex
		return this.output.replace(/\x1b\[[0-9;]*m/g, '');
	}

	async stop(graceMs = 30_000): Promise<void> {
		if (this.exited || this.child.pid === undefined) return;
		const signal = (name: NodeJS.Signals) => {
			try {
				process.kill(-this.child.pid!, name);
			} catch {
				// already gone
			}
		};
		signal('SIGTERM');
		const deadline = Date.now() + graceMs;
		while (!this.exited && Date.now() < deadline) await sleep(100);
		if (!this.exited) signal('SIGKILL');
	}
}

function startBackground(command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Background {
	const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	return new Background(child, logFile);
}

/** Runs a command to its end (killed after `timeoutMs`). */
export function run(
	command: string,
	args: string[],
	options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
) {
	return new Promise<CommandResult>((done) => {
		const child = spawn(command, args, {
			env: options.env ?? process.env,
			cwd: options.cwd,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
		child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
		const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
		child.once('close', (code, signal) => {
			clearTimeout(timer);
			// A process ended by a signal has no code: say which, so a crash is told from a time-out.
			done({ code, stdout, stderr: signal ? `${stderr}\n[ended by ${signal}]` : stderr });
		});
	});
}

// ------------------------------------------------------------------------------------------------ sandbox

export interface Sandbox {
	url: string;
	credentials: { clientKey: string; clientSecret: string; organizationId: string };
	/** A call to the sandbox's admin door (no auth); resolves its parsed JSON. */
	admin<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	stop(): Promise<void>;
}

/** The sandbox on a free loopback port (extra arguments go to test/sandbox/cli.js). */
export async function startSandbox(dir: string, args: string[] = ['--contacts', '60']): Promise<Sandbox> {
	const process_ = startBackground(
		process.execPath,
		[join(ROOT, 'test', 'sandbox', 'cli.js'), '--port', '0', ...args],
		process.env,
		join(dir, 'sandbox.log'),
	);
	const field = (label: string) => new RegExp(`^ *${label} +(\\S+)`, 'm').exec(process_.log())?.[1];
	await waitFor('the sandbox prints its base URL and demo keys', 15_000, () => {
		if (!process_.running) throw new Error(`the sandbox exited:\n${process_.log()}`);
		return field('Organization id') !== undefined;
	});
	const url = field('Base URL')!;
	const admin = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
		const response = await fetch(`${url}${path}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(10_000),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`sandbox ${method} ${path}: HTTP ${response.status} ${text}`);
		return (text ? JSON.parse(text) : undefined) as T;
	};
	return {
		url,
		credentials: {
			clientKey: field('Client key')!,
			clientSecret: field('Client secret')!,
			organizationId: field('Organization id')!,
		},
		admin,
		stop: () => process_.stop(5_000),
	};
}

/** A token from the sandbox's login, for calling its API directly (setting up data, or the HTTP Request node). */
export async function sandboxToken(url: string, key: { clientKey: string; clientSecret: string }): Promise<string> {
	const login = await fetch(`${url}/v1/sts/login/services`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ clientKey: key.clientKey, clientSecret: key.clientSecret }),
	});
	if (!login.ok) throw new Error(`sandbox login: HTTP ${login.status}`);
	return ((await login.json()) as { token: string }).token;
}

// ------------------------------------------------------------------------------------------------ n8n

/** This process's tarball: packed at most once per process. */
let packed: Promise<string> | undefined;

/**
 * The package packed once per run (scripts/e2e-n8n.sh packs it and sets E2E_TARBALL; otherwise packed here, fresh:
 * a tarball left by an earlier process holds the code of then, and a bench once measured a day-old build that way).
 */
function tarball(): Promise<string> {
	if (process.env.E2E_TARBALL && existsSync(process.env.E2E_TARBALL)) return Promise.resolve(process.env.E2E_TARBALL);
	packed ??= (async () => {
		const dir = join(RUN_DIR, `pack-${process.pid}`); // jest workers pack side by side
		removeEndedPacks();
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		const result = await run('npm', ['pack', '--pack-destination', dir], { cwd: ROOT, timeoutMs: 300_000 });
		if (result.code !== 0) throw new Error(`npm pack failed:\n${result.stdout}${result.stderr}`);
		const file = readdirSync(dir).find((f) => /^n8n-nodes-cloud4wi-.*\.tgz$/.test(f));
		if (!file) throw new Error(`npm pack left no tarball in ${dir}`);
		return join(dir, file);
	})();
	return packed;
}

/** Removes the pack folders of processes that have ended: nothing reads them again, and they pile up run after run. */
function removeEndedPacks(): void {
	if (!existsSync(RUN_DIR)) return;
	for (const name of readdirSync(RUN_DIR)) {
		const pid = Number(/^pack-(\d+)$/.exec(name)?.[1]);
		if (pid && !running(pid)) rmSync(join(RUN_DIR, name), { recursive: true, force: true });
	}
}

/** Whether a process with this id exists (signal 0 only checks; EPERM: it exists, under another user). */
function running(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

export interface N8n {
	version: string;
	userFolder: string;
	/** The installed package, as n8n finds it. */
	packageDir: string;
	/** The n8n CLI with this instance's environment (its user folder, database, encryption key). */
	cli(args: string[], timeoutMs?: number): Promise<CommandResult>;
	/** `n8n start`, until its REST API is up and it answers on /healthz/readiness (and, if given, `until(log)` holds). */
	start(options?: { logLevel?: string; until?: (log: string) => boolean; logFile?: string }): Promise<void>;
	stop(): Promise<void>;
	readonly url: string;
	/** What the running (or last) `n8n start` printed, without colours. */
	log(): string;
	/** Sets up the owner account and keeps its session cookie for `rest`. */
	setupOwner(): Promise<void>;
	/** A REST call as the owner; resolves the body's `data`. */
	rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
	/** A REST call as the owner; the whole answer. */
	restRaw(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
	/** Imports the sandbox credential (id, name) with an empty session token. */
	importCredential(sandbox: Sandbox, id: string, name: string): Promise<void>;
	/** Imports credentials in one CLI start-up: each its id, name, type and data. */
	importCredentials(credentials: Array<{ id: string; name: string; type: string; data: object }>): Promise<void>;
}

/** The sandbox credential as n8n imports it, with an empty session token. */
export function sandboxCredential(sandbox: Sandbox, id: string, name: string) {
	return { id, name, type: 'cloud4WiApi', data: { baseUrl: sandbox.url, ...sandbox.credentials, sessionToken: '' } };
}

/** `npm install <tarball>` in a fresh nodes folder, as users install a community package. */
async function installTarball(nodes: string, dir: string): Promise<void> {
	mkdirSync(nodes, { recursive: true });
	writeFileSync(
		join(nodes, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }),
	);
	const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', await tarball()], {
		cwd: nodes,
		timeoutMs: 300_000,
	});
	writeFileSync(join(dir, 'nodes-install.log'), installed.stdout + installed.stderr);
	if (installed.code !== 0) throw new Error(`npm install of the tarball into ${nodes} failed:\n${installed.stderr}`);
}

/**
 * An n8n of the given line with the packed package installed in a fresh user folder under `dir`. Nothing runs
 * until `start()`; the CLI commands work at once.
 */
export async function prepareN8n(line: N8nLine, dir: string): Promise<N8n> {
	const { version, home } = N8N_VERSIONS[line];
	const bin = join(home, 'node_modules', '.bin', 'n8n');
	if (!existsSync(bin)) throw new Error(`n8n ${version} is not installed in ${home} (scripts/e2e-n8n.sh installs it)`);
	const userFolder = join(dir, 'home');
	const nodes = join(userFolder, '.n8n', 'nodes');
	const shared = process.env.E2E_NODES_DIR && join(process.env.E2E_NODES_DIR, version);
	if (shared && existsSync(join(shared, 'node_modules', 'n8n-nodes-cloud4wi'))) {
		// scripts/e2e-n8n.sh installed the tarball once for this version; n8n only reads its nodes folder
		mkdirSync(join(userFolder, '.n8n'), { recursive: true });
		symlinkSync(shared, nodes);
	} else await installTarball(nodes, dir);

	const env: NodeJS.ProcessEnv = {
		...process.env,
		NODE_ENV: 'production', // jest sets "test", in which n8n's CLI quietly does nothing
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		DB_TYPE: 'sqlite',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		N8N_LOG_OUTPUT: 'console',
		N8N_LOG_LEVEL: 'info',
		GENERIC_TIMEZONE: 'UTC',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_SECURE_COOKIE: 'false',
	};
	let server: Background | undefined;
	let url = '';
	let cookie = '';

	const restRaw = async (method: string, path: string, body?: unknown) => {
		const response = await fetch(`${url}${path}`, {
			method,
			headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
			body: body === undefined ? undefined : JSON.stringify(body),
			signal: AbortSignal.timeout(60_000),
		});
		const setCookie = response.headers.get('set-cookie');
		if (setCookie) cookie = setCookie.split(';')[0];
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON: kept as text
		}
		return { status: response.status, body: parsed };
	};

	const n8n: N8n = {
		version,
		userFolder,
		packageDir: join(nodes, 'node_modules', 'n8n-nodes-cloud4wi'),
		get url() {
			return url;
		},
		cli: (args, timeoutMs = 180_000) => run(bin, args, { env, timeoutMs }),
		async start({ logLevel = 'info', until, logFile = join(dir, 'n8n.log') } = {}) {
			const port = await freePort();
			url = `http://127.0.0.1:${port}`;
			server = startBackground(bin, ['start'], { ...env, N8N_PORT: String(port), N8N_LOG_LEVEL: logLevel }, logFile);
			const started = server;
			await waitFor(`n8n ${version} starts (log: ${logFile})`, 180_000, async () => {
				if (!started.running) throw new Error(`n8n exited:\n${started.log().slice(-3000)}`);
				if (until && !until(started.log())) return false;
				// n8n 1.x is ready (healthz) before its REST API is there; both print this line once it is
				if (!started.log().includes('Editor is now accessible via')) return false;
				try {
					return (await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(2_000) })).ok;
				} catch {
					return false;
				}
			});
		},
		async stop() {
			await server?.stop();
		},
		log: () => server?.log() ?? '',
		async setupOwner() {
			const setup = await restRaw('POST', '/rest/owner/setup', { ...OWNER, firstName: 'E2E', lastName: 'Owner' });
			if (setup.status !== 200) {
				const login = await restRaw('POST', '/rest/login', {
					emailOrLdapLoginId: OWNER.email,
					email: OWNER.email,
					password: OWNER.password,
				});
				if (login.status !== 200)
					throw new Error(`owner setup: ${JSON.stringify(setup.body)}; login: ${JSON.stringify(login.body)}`);
			}
		},
		restRaw,
		async rest<T>(method: string, path: string, body?: unknown) {
			const answer = await restRaw(method, path, body);
			if (answer.status >= 400)
				throw new Error(`${method} ${path}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 500)}`);
			return (answer.body as { data: T }).data;
		},
		importCredential: (sandbox, id, name) => n8n.importCredentials([sandboxCredential(sandbox, id, name)]),
		async importCredentials(credentials) {
			const file = join(dir, `credentials-${credentials.map((c) => c.id).join('-')}.json`);
			writeFileSync(file, JSON.stringify(credentials));
			const imported = await n8n.cli(['import:credentials', `--input=${file}`]);
			const done = new RegExp(`Successfully imported ${credentials.length} credentials?`);
			if (imported.code !== 0 || !done.test(imported.stdout + imported.stderr)) {
				throw new Error(`n8n import:credentials failed:\n${imported.stdout}${imported.stderr}`);
			}
		},
	};
	return n8n;
}

/** Imports workflow files (a file, or a folder with --separate); throws with n8n's output when it fails. */
export async function importWorkflows(n8n: N8n, path: string): Promise<void> {
	const separate = !path.endsWith('.json');
	const imported = await n8n.cli(['import:workflow', ...(separate ? ['--separate'] : []), `--input=${path}`]);
	if (imported.code !== 0) throw new Error(`n8n import:workflow ${path} failed:\n${imported.stdout}${imported.stderr}`);
}

/** A JSON file, or `fallback` when it is missing or not JSON. */
export function readJson<T>(file: string, fallback: T): T {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as T;
	} catch {
		return fallback;
	}
}

// ------------------------------------------------------------------------------------------------ suites

export interface E2E {
	dir: string;
	sandbox: Sandbox;
	n8n: N8n;
}

/**
 * For a suite that needs a running n8n 2.40.7 with the owner set up, against its own sandbox. Call at the top level;
 * the handle is filled in by beforeAll and everything is stopped by afterAll.
 */
export function useE2E(name: string, options: { credential?: { id: string; name: string } } = {}): E2E {
	const handle = {} as E2E;
	beforeAll(async () => {
		handle.dir = workDir(name);
		handle.sandbox = await startSandbox(handle.dir);
		handle.n8n = await prepareN8n('current', handle.dir);
		if (options.credential)
			await handle.n8n.importCredential(handle.sandbox, options.credential.id, options.credential.name);
		await handle.n8n.start();
		await handle.n8n.setupOwner();
	}, 600_000);
	afterAll(async () => {
		await handle.n8n?.stop();
		await handle.sandbox?.stop();
	}, 60_000);
	return handle;
}
