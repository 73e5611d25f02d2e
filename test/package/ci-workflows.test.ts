/** The GitHub workflows that test and publish the package. */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '../..');
const WORKFLOWS = join(ROOT, '.github', 'workflows');
const VALIDATOR = join(ROOT, 'node_modules', '.bin', 'action-validator');
/** Exit code and output of action-validator (GitHub's workflow schema) on one file. */
async function validate(file: string): Promise<{ code: number; output: string }> {
	try {
		const { stdout, stderr } = await run(VALIDATOR, [file]);
		return { code: 0, output: stdout + stderr };
	} catch (error) {
		const failed = error as { code?: number; stdout?: string; stderr?: string };
		return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
	}
}

describe('GitHub workflows', () => {
	const workflows = readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f));
	const text = (name: string) => readFileSync(join(WORKFLOWS, name), 'utf8');

	test('ci.yml and publish.yml are there', () => {
		expect(workflows).toEqual(expect.arrayContaining(['ci.yml', 'publish.yml']));
	});

	test.each(workflows)('%s passes action-validator (GitHub’s workflow schema)', async (name) => {
		const { code, output } = await validate(join(WORKFLOWS, name));
		expect(output.trim()).toBe('');
		expect(code).toBe(0);
	});

	test('CI runs the README’s test command; a version tag publishes with provenance', () => {
		expect(text('ci.yml')).toMatch(/^\s+run: bash scripts\/test\.sh$/m);
		const publish = text('publish.yml');
		expect(publish).toMatch(/tags:\s*\n\s*- 'v\*\.\*\.\*'/);
		expect(publish).toMatch(/^\s+id-token: write/m);
		expect(publish).toMatch(/^\s+npm publish --provenance --access public$/m);
	});
});
