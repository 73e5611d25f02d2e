/**
 * Every operation of the action node, as its description lists them, has what it needs outside its own file: a line
 * in the README, a node in the e2e action workflows (regenerated from e2e/make-workflows.js) with its check in
 * e2e/check-actions.ts, and sandbox routes for every request it sends. Each gap is named, with where to mend it;
 * CONTRIBUTING.md's "Adding an operation" lists the steps.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INodeParameters, INodePropertyOptions, INodeType } from 'n8n-workflow';

import { actionChecks } from '../../e2e/check-actions';
import type { TestContext } from '../harness/cloud4wi';
import { ACTION_TYPE, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { nodeTypes } from '../harness/engine';
import { ROUTES } from '../sandbox/api/routes';

const ROOT = join(__dirname, '..', '..');
const WORKFLOWS = join(ROOT, 'e2e', 'workflows', 'actions');

interface Operation {
	/** `resource/value`, as the messages name it. */
	key: string;
	resource: string;
	/** The resource's name in the editor, as the README writes it. */
	resourceName: string;
	value: string;
	name: string;
}

/** The operations the node offers, read from its description. */
function operationsOfTheNode(): Operation[] {
	const { properties } = (nodeTypes.getByNameAndVersion(ACTION_TYPE) as INodeType).description;
	const resources = properties.find((p) => p.name === 'resource')!.options as INodePropertyOptions[];
	return properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) => {
			const resource = p.displayOptions!.show!.resource![0] as string;
			const resourceName = resources.find((r) => r.value === resource)!.name;
			return (p.options as INodePropertyOptions[]).map((o) => ({
				key: `${resource}/${String(o.value)}`,
				resource,
				resourceName,
				value: String(o.value),
				name: o.name,
			}));
		});
}

/** The README's Operations list: the operation names on each resource's line (`- **Contact**: Get Many, Get, …`). */
function readmeOperations(resourceNames: string[]): Map<string, string[]> {
	const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
	const section = readme.split(/^## /m).find((s) => s.startsWith('Operations\n')) ?? '';
	const lines = section.replace(/\n {2}(?=\S)/g, ' ').split('\n');
	const listed = new Map<string, string[]>();
	for (const line of lines) {
		const m = /^- \*\*(.+?)\*\*: (.+)$/.exec(line);
		if (m && resourceNames.includes(m[1]))
			listed.set(
				m[1],
				m[2].split(', ').map((name) => name.replace(/\s*\(.*\)$/, '').trim()),
			);
	}
	return listed;
}

interface WorkflowNode {
	name: string;
	parameters: INodeParameters;
}

/** The Cloud4Wi nodes of the committed e2e action workflows. */
function e2eNodes(): WorkflowNode[] {
	return readdirSync(WORKFLOWS).flatMap((file) =>
		(
			JSON.parse(readFileSync(join(WORKFLOWS, file), 'utf8')) as { nodes: Array<WorkflowNode & { type: string }> }
		).nodes.filter((n) => n.type === 'n8n-nodes-cloud4wi.cloud4Wi'),
	);
}

const operations = operationsOfTheNode();

test('the node lists its operations (the list the checks below go through)', () => {
	expect(operations.length).toBeGreaterThanOrEqual(25);
	expect(operations.map((o) => o.key)).toEqual(expect.arrayContaining(['contact/getDevices', 'token/revoke']));
});

test('the README lists every operation under its resource, and only those', () => {
	const listed = readmeOperations(operations.map((o) => o.resourceName));
	const problems = operations
		.filter((o) => !listed.get(o.resourceName)?.includes(o.name))
		.map((o) => `${o.key} has no README line: add "${o.name}" to "- **${o.resourceName}**:" under ## Operations`);
	for (const [resourceName, names] of listed)
		for (const name of names)
			if (!operations.some((o) => o.resourceName === resourceName && o.name === name))
				problems.push(`README lists ${resourceName} "${name}", which the node does not offer`);
	expect(problems).toEqual([]);
});

describe('e2e', () => {
	test('every operation runs in an e2e action workflow and has its check in e2e/check-actions.ts', () => {
		const nodes = e2eNodes();
		const checks = new Set(actionChecks(join(ROOT, 'e2e', 'no-such-folder')).map((c) => c.name));
		const problems = operations.flatMap((o) => [
			...(nodes.some((n) => n.parameters.resource === o.resource && n.parameters.operation === o.value)
				? []
				: [`${o.key} has no e2e workflow node: add one in e2e/make-workflows.js, then run node e2e/make-workflows.js`]),
			...(checks.has(`${o.resource} ${o.value}`)
				? []
				: [`${o.key} has no e2e check: add check('${o.resource} ${o.value}', …) in e2e/check-actions.ts`]),
		]);
		expect(problems).toEqual([]);
	});

	test('the committed workflows are what e2e/make-workflows.js writes', () => {
		const dir = mkdtempSync(join(tmpdir(), 'e2e-workflows-'));
		try {
			execFileSync(process.execPath, [join(ROOT, 'e2e', 'make-workflows.js'), dir]);
			const files = readdirSync(dir);
			expect(readdirSync(WORKFLOWS).sort()).toEqual(files.sort());
			const stale = files.filter(
				(file) => readFileSync(join(dir, file), 'utf8') !== readFileSync(join(WORKFLOWS, file), 'utf8'),
			);
			expect(stale.map((file) => `e2e/workflows/actions/${file} is stale: run node e2e/make-workflows.js`)).toEqual([]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('sandbox', () => {
	/** Seeded records for the ids the e2e workflows map from earlier nodes, so each operation gets to every request. */
	const IDS: Record<string, (ctx: TestContext) => string> = {
		contactId: (ctx) => ctx.sb.data.contacts[0]!.cid,
		organizationId: (ctx) => ctx.sb.organizationId,
		locationId: (ctx) => ctx.sb.data.locations[0]!.id,
		venueId: (ctx) => ctx.sb.data.locations[0]!.id,
		hotspotId: (ctx) => ctx.sb.data.hotspots[0]!.id,
	};

	/** The e2e node's parameters, each `={{ … }}` (an id from an earlier node) replaced by a seeded id. */
	function resolved(value: unknown, key: string, ctx: TestContext, unknown: string[]): unknown {
		if (typeof value === 'string' && value.startsWith('=')) {
			if (IDS[key]) return IDS[key](ctx);
			unknown.push(key);
			return value;
		}
		if (Array.isArray(value)) return value.map((v) => resolved(v, key, ctx, unknown));
		if (value && typeof value === 'object')
			return Object.fromEntries(
				Object.entries(value).map(([k, v]) => [
					k,
					resolved(v, k === 'value' && '__rl' in value ? key : k, ctx, unknown),
				]),
			);
		return value;
	}

	const routed = (method: string, path: string) => ROUTES.some((r) => r.method === method && r.pattern.test(path));

	test('every request of every operation (run with its e2e parameters) has its route in test/sandbox/api/routes.js', async () => {
		const nodes = e2eNodes();
		const problems: string[] = [];
		for (const o of operations) {
			const e2e = nodes.find((n) => n.parameters.resource === o.resource && n.parameters.operation === o.value);
			if (!e2e) {
				problems.push(
					`${o.key}: its sandbox routes are not checked: it has no e2e workflow node to take parameters from`,
				);
				continue;
			}
			// Its own sandbox: an operation that deletes does not take a record from the next one.
			const ctx = await startCloud4Wi({ contacts: 5 });
			try {
				const unknown: string[] = [];
				const parameters = resolved(e2e.parameters, '', ctx, unknown) as INodeParameters;
				if (unknown.length) problems.push(`${o.key}: add the e2e parameter ${unknown.join(', ')} to IDS here`);
				const result = await runAction(ctx, parameters);
				const sent = ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login'));
				if (!sent.length) problems.push(`${o.key} sent no request (${result.error?.message ?? 'no error'})`);
				for (const r of sent)
					if (!routed(r.method, r.path))
						problems.push(
							`${o.key} has no sandbox route for ${r.method} ${r.path}: add it to test/sandbox/api/routes.js`,
						);
			} finally {
				await ctx.sb.close();
			}
		}
		expect(problems).toEqual([]);
	});
});
