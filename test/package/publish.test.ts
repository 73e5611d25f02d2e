import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const GUARD_MESSAGE = 'Run `npm run release` to publish the package';
// What npm says when the dry run itself passed but the registry could not be asked (no login, no network).
const REGISTRY_TROUBLE = /ENEEDAUTH|E401|E403|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|network/;
const PACKAGE_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'gulpfile.js', 'README.md', 'LICENSE'];

/** Literal environment variables of the workflow step that runs `npm publish` (secrets left out). */
function publishStepEnv(): Record<string, string> {
	const workflow = readFileSync(join(ROOT, '.github', 'workflows', 'publish.yml'), 'utf8');
	const step = workflow.split(/^\s+- (?:name|uses):/m).find((s) => /^\s+npm publish\b/m.test(s));
	if (!step) throw new Error('publish.yml has no step running npm publish');
	const env: Record<string, string> = {};
	const block = /^(\s+)env:\n((?:\1\s+.*\n?)+)/m.exec(step);
	for (const line of block?.[2].split('\n') ?? []) {
		const m = /^\s+([A-Z_][A-Z0-9_]*):\s*(.*?)\s*(?:#.*)?$/.exec(line);
		if (m && !m[2].includes('${{')) env[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
	}
	return env;
}

/** Exit code and all output of `npm publish --dry-run` in `dir`. */
function dryRun(dir: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
	return new Promise((resolve) => {
		execFile('npm', ['publish', '--dry-run'], { cwd: dir, env, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
			resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` });
		});
	});
}

describe('npm publish', () => {
	let dir: string;
	let outside: NodeJS.ProcessEnv;

	beforeAll(() => {
		dir = mkdtempSync(join(tmpdir(), 'publish-guard-'));
		for (const file of PACKAGE_FILES) cpSync(join(ROOT, file), join(dir, file));
		for (const sub of ['nodes', 'credentials']) cpSync(join(ROOT, sub), join(dir, sub), { recursive: true });
		symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
		outside = { ...process.env };
		delete outside.RELEASE_MODE;
	});

	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	test('the publish workflow sets what the guard asks for, and package.json has the script it names', () => {
		expect(publishStepEnv()).toMatchObject({ RELEASE_MODE: 'true' });
		const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		};
		expect(scripts.prepublishOnly).toBe('n8n-node prerelease');
		expect(scripts.release).toBeDefined();
	});

	test('outside the publish workflow: refused by the prerelease check, before anything is built or packed', async () => {
		const { code, output } = await dryRun(dir, outside);
		expect(output).toContain(GUARD_MESSAGE);
		expect(code).not.toBe(0);
		expect(output).not.toContain('Tarball Details');
	});

	test('with the publish step’s environment: the check passes, the package is built and packed', async () => {
		const { code, output } = await dryRun(dir, { ...outside, ...publishStepEnv() });
		expect(output).not.toContain(GUARD_MESSAGE);
		expect(output).toContain('> n8n-node prerelease');
		expect(output).toContain('Tarball Details');
		expect(output).toContain('dist/nodes/Cloud4Wi/Cloud4Wi.node.js');
		if (code !== 0) expect(output).toMatch(REGISTRY_TROUBLE);
	}, 120_000);
});
