/** What gets published: only the compiled nodes and credential, README, LICENSE and package.json. */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '../..');
const ALLOWED_FILES = ['README.md', 'LICENSE', 'package.json'];

/** Paths `npm pack` would put in the tarball of the package in `dir` (without running prepack: dist/ is already built). */
async function packedFiles(dir: string): Promise<string[]> {
	const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: dir });
	const [pack] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
	return pack.files.map((f) => f.path);
}

/** Packed paths that do not belong in the package: anything but the compiled nodes and credentials, README, LICENSE and package.json. */
function strayFiles(paths: string[]): string[] {
	return paths.filter(
		(p) =>
			!ALLOWED_FILES.includes(p) &&
			!(
				/^dist\/(nodes|credentials)\//.test(p) &&
				!/(^|\/)(test|tests|sandbox|bench|__tests__)\/|\.test\.|\.spec\./.test(p)
			),
	);
}
describe('npm pack', () => {
	let files: string[];
	beforeAll(async () => {
		files = await packedFiles(ROOT);
	});

	test('holds only dist/ (nodes and credentials), README.md, LICENSE and package.json', () => {
		expect(strayFiles(files)).toEqual([]);
		expect(files).toEqual(expect.arrayContaining(ALLOWED_FILES));
	});

	test('holds every file package.json names for n8n, with its icons', () => {
		const { n8n } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			n8n: { nodes: string[]; credentials: string[] };
		};
		expect(files).toEqual(expect.arrayContaining([...n8n.nodes, ...n8n.credentials]));
		expect(files.filter((p) => p.endsWith('.svg')).length).toBeGreaterThanOrEqual(2);
	});

	test('the check flags tests, sandbox, bench and sources in a package that ships them', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'pack-check-'));
		try {
			for (const sub of ['dist/nodes/X', 'dist/test/sandbox', 'bench', 'nodes/X'])
				mkdirSync(join(dir, sub), { recursive: true });
			for (const file of [
				'dist/nodes/X/X.node.js',
				'dist/nodes/X/X.test.js.map',
				'dist/test/sandbox/index.js',
				'bench/run.js',
				'nodes/X/X.node.ts',
				'LICENSE',
				'README.md',
			])
				writeFileSync(join(dir, file), '//\n');
			writeFileSync(
				join(dir, 'package.json'),
				JSON.stringify({ name: 'pack-check', version: '1.0.0', files: ['dist', 'bench', 'nodes'] }),
			);
			expect(strayFiles(await packedFiles(dir)).sort()).toEqual([
				'bench/run.js',
				'dist/nodes/X/X.test.js.map',
				'dist/test/sandbox/index.js',
				'nodes/X/X.node.ts',
			]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
