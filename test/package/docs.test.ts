import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '../..');
const README = join(ROOT, 'README.md');
// The section headings of n8n's template for community-node READMEs.
const TEMPLATE_HEADINGS = ['Installation', 'Operations', 'Credentials', 'Compatibility', 'Usage', 'Resources'];
// The order a new user reads in: what to install, how to sign in, what the nodes do, then the rest.
const READING_ORDER = [
	'Installation',
	'Credentials',
	'Operations',
	'Trigger',
	'Usage',
	'Compatibility',
	'Resources',
	'Version history',
];
const MAX_PROSE_LINE = 120;
// About what GitHub shows above the fold on a laptop.
const FIRST_SCREEN_LINES = 20;
const MARKDOWN_FILES = [
	'README.md',
	'CONTRIBUTING.md',
	'SECURITY.md',
	...readdirSync(join(ROOT, 'docs'))
		.filter((f) => f.endsWith('.md'))
		.map((f) => `docs/${f}`),
];

interface Line {
	number: number;
	text: string;
}

/** The lines of a markdown file outside fenced code blocks. */
function proseLines(markdown: string): Line[] {
	let fenced = false;
	const lines: Line[] = [];
	markdown.split('\n').forEach((text, i) => {
		if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
		else if (!fenced) lines.push({ number: i + 1, text });
	});
	return lines;
}

/** GitHub's anchor for a heading, by the simple rule: lowercase, spaces to hyphens, other punctuation dropped. */
function slug(heading: string): string {
	return heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s_-]/gu, '')
		.trim()
		.replace(/\s/g, '-');
}

function headings(markdown: string, level?: number): string[] {
	const hashes = level === undefined ? '#{1,6}' : `#{${level}}`;
	const pattern = new RegExp(`^${hashes} (.+?)\\s*$`);
	return proseLines(markdown)
		.map((l) => pattern.exec(l.text)?.[1])
		.filter((h): h is string => h !== undefined);
}

/** The anchors GitHub gives a file's headings (a repeated heading gets -1, -2…). */
function anchors(markdown: string): Set<string> {
	const seen = new Map<string, number>();
	const result = new Set<string>();
	for (const heading of headings(markdown)) {
		const base = slug(heading);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		result.add(count === 0 ? base : `${base}-${count}`);
	}
	return result;
}

/** Targets of the links and images of a markdown file, outside code. */
function linkTargets(markdown: string): Array<{ line: number; target: string }> {
	return proseLines(markdown).flatMap(({ number, text }) =>
		[...text.replace(/`[^`]*`/g, '').matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => ({
			line: number,
			target: m[1],
		})),
	);
}

/** Why a relative link of `file` does not land, or undefined when it does. */
function brokenLink(file: string, target: string): string | undefined {
	const [path, anchor] = target.split('#');
	const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
	if (!existsSync(resolved)) return `${relative(ROOT, resolved)} does not exist`;
	if (anchor !== undefined && resolved.endsWith('.md') && !anchors(readFileSync(resolved, 'utf8')).has(anchor))
		return `${relative(ROOT, resolved)} has no heading #${anchor}`;
	return undefined;
}

/** Every `*.node.json` under nodes/. */
function codexFiles(dir = join(ROOT, 'nodes')): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory()
			? codexFiles(join(dir, entry.name))
			: entry.name.endsWith('.node.json')
				? [join(dir, entry.name)]
				: [],
	);
}

const readme = readFileSync(README, 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
	homepage: string;
	repository: { url: string };
	bugs: { url: string };
};
const REPOSITORY = 'https://github.com/cloud4wi/n8n-nodes-cloud4wi';

describe('README.md', () => {
	const sections = headings(readme, 2);

	test('has the sections of n8n’s template, Installation first and Version history last', () => {
		expect(sections).toEqual(expect.arrayContaining([...TEMPLATE_HEADINGS, 'Version history']));
		expect(sections[0]).toBe('Installation');
		expect(sections[sections.length - 1]).toBe('Version history');
		expect(sections.filter((s) => READING_ORDER.includes(s))).toEqual(READING_ORDER);
	});

	test(`has no line of prose longer than ${MAX_PROSE_LINE} characters`, () => {
		const long = proseLines(readme)
			.filter((l) => [...l.text].length > MAX_PROSE_LINE)
			.map((l) => `line ${l.number}: ${[...l.text].length} characters`);
		expect(long).toEqual([]);
	});

	test.each(MARKDOWN_FILES)('every relative link of %s lands on a file and heading that exist', (name) => {
		const file = join(ROOT, name);
		const links = linkTargets(readFileSync(file, 'utf8')).filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));
		if (name === 'README.md') expect(links.length).toBeGreaterThan(10);
		const broken = links.flatMap(({ line, target }) => {
			const why = brokenLink(file, target);
			return why ? [`line ${line}: ${target}: ${why}`] : [];
		});
		expect(broken).toEqual([]);
	});

	test('names the setup and test commands in its first screen, and keeps them under Development', () => {
		const firstScreen = readme.split('\n').slice(0, FIRST_SCREEN_LINES).join('\n');
		expect(firstScreen).toContain('bash scripts/demo.sh');
		expect(firstScreen).toContain('bash scripts/test.sh');
		expect(firstScreen).toContain('](#development)');
		const development = readme.split(/^## /m).find((s) => s.startsWith('Development\n'));
		expect(development).toMatch(/```bash\nbash scripts\/demo\.sh[^\n]*\nbash scripts\/test\.sh[^\n]*\n```/);
		expect(development).toContain('](CONTRIBUTING.md)');
		for (const script of ['scripts/demo.sh', 'scripts/test.sh']) expect(existsSync(join(ROOT, script))).toBe(true);
		expect(readFileSync(join(ROOT, '.ci', 'run'), 'utf8')).toMatch(/^bash scripts\/test\.sh\b/m);
	});

	test('the anchor rule matches GitHub’s on this README’s kind of headings', () => {
		expect(slug('Version history')).toBe('version-history');
		expect(slug('When Cloud4Wi answers "too many requests"')).toBe('when-cloud4wi-answers-too-many-requests');
		expect(slug('Pages, and what *Limit* does')).toBe('pages-and-what-limit-does');
	});
});

describe('documentation links shown in n8n', () => {
	const sectionAnchors = anchors(readme);
	const credentialSource = readFileSync(join(ROOT, 'credentials', 'Cloud4WiApi.credentials.ts'), 'utf8');
	const credentialUrl = /documentationUrl\s*=\s*['"`]([^'"`]+)['"`]/.exec(credentialSource)?.[1];
	const codexUrls = codexFiles().flatMap((file) => {
		const codex = JSON.parse(readFileSync(file, 'utf8')) as { resources?: Record<string, Array<{ url: string }>> };
		return Object.entries(codex.resources ?? {}).flatMap(([kind, links]) =>
			links.map((link) => [`${relative(ROOT, file)} ${kind}`, link.url] as const),
		);
	});

	test('there are codex files for both nodes, and the credential has a documentation URL', () => {
		expect(codexUrls.map(([where]) => where)).toEqual(
			expect.arrayContaining([
				'nodes/Cloud4Wi/Cloud4Wi.node.json primaryDocumentation',
				'nodes/Cloud4Wi/Cloud4Wi.node.json credentialDocumentation',
				'nodes/Cloud4WiTrigger/Cloud4WiTrigger.node.json primaryDocumentation',
			]),
		);
		expect(credentialUrl).toBeDefined();
	});

	test('each opens a section of the README on the repository', () => {
		const links = [...codexUrls, ['credentials/Cloud4WiApi.credentials.ts documentationUrl', credentialUrl ?? '']];
		const wrong = links.flatMap(([where, url]) => {
			const [page, anchor] = url.split('#');
			if (page !== REPOSITORY) return [`${where}: ${url} is not the repository's README`];
			if (!anchor || !sectionAnchors.has(anchor)) return [`${where}: ${url} names no README heading`];
			return [];
		});
		expect(wrong).toEqual([]);
	});

	test('the credential and the nodes open the sections about them', () => {
		const urls = Object.fromEntries(codexUrls);
		expect(credentialUrl).toBe(`${REPOSITORY}#credentials`);
		expect(urls['nodes/Cloud4Wi/Cloud4Wi.node.json primaryDocumentation']).toBe(`${REPOSITORY}#operations`);
		expect(urls['nodes/Cloud4WiTrigger/Cloud4WiTrigger.node.json primaryDocumentation']).toBe(`${REPOSITORY}#trigger`);
	});

	test('package.json’s repository, homepage and bugs name the same repository as the publish workflow', () => {
		expect(pkg.repository.url).toBe(`git+${REPOSITORY}.git`);
		expect(pkg.homepage).toBe(`${REPOSITORY}#readme`);
		expect(pkg.bugs.url).toBe(`${REPOSITORY}/issues`);
		const publish = readFileSync(join(ROOT, '.github', 'workflows', 'publish.yml'), 'utf8');
		expect(publish).toMatch(/Organization or user:.*\(cloud4wi\)/);
		expect(publish).toMatch(/Repository:\s+n8n-nodes-cloud4wi$/m);
	});
});
