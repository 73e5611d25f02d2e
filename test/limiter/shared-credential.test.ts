import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../sandbox';
import type { TestContext } from '../harness/cloud4wi';
import { CREDENTIAL_ID, actionWorkflow, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { buildWorkflow, runWorkflow } from '../harness/engine';

let ctx: TestContext;
afterEach(async () => {
	await ctx.sb.close();
});

const optIn = (max?: number) => ({
	resource: 'contact',
	operation: 'updateOptIns',
	contactId: '={{ $json.id }}',
	optIns: { optIn: [{ policy: 'mktgCommunications', accepted: '={{ $json.accepted }}' }] },
	...(max ? { requestOptions: { maxConcurrentRequests: max } } : {}),
});
const policiesPath = (id: string) => `/v1/customers/${id}/policies`;

/** A second credential with the same key: an account of its own in this process, for runs timed alone. */
const ALONE = 'cred-alone';
const withCredential = (id: string) => ({ credentials: { cloud4WiApi: { id, name: id } } });
const asItems = (ids: string[]) => ids.map((id, i) => ({ id, accepted: i % 2 === 0 }));

/** Opt-in writes for `ids`, every other one accepted; the run must fail no item. */
async function writeOptIns(ids: string[], max?: number, credentialId = CREDENTIAL_ID) {
	const result = await runAction(ctx, optIn(max), asItems(ids), withCredential(credentialId));
	expect(result.error).toBeUndefined();
	expect(result.json.filter((j) => j.error)).toEqual([]);
	return result;
}

/**
 * The credential's account starts at the service's limit, as a later run does from what an earlier one kept in the
 * workflow: finding it is bulk.test's and the limits bench's, and no run here probes above it.
 */
async function knowTheLimit(ids: string[], credentialId = CREDENTIAL_ID) {
	if (credentialId !== CREDENTIAL_ID) ctx.store.set(credentialId, 'cloud4WiApi', ctx.store.stored(CREDENTIAL_ID));
	const learned = { baseUrl: ctx.sb.url, refusedLevel: 17, refusedAt: Date.now(), probeAfterMs: 600_000 };
	const staticData = { global: { cloud4WiLimits: { [credentialId]: learned } } };
	const workflow = actionWorkflow(optIn(), asItems(ids), withCredential(credentialId));
	const result = await runWorkflow(buildWorkflow(workflow, staticData), ctx.store);
	expect(result.error).toBeUndefined();
	expect(ctx.sb.rateLimited).toBe(0);
}

/**
 * Wall time on a shared 2-core machine, where other test files run beside these. Each run together sits between two
 * runs alone, on a credential of its own (same key, an account the runs together never touch), and the best of three
 * comparisons counts: a moment of load elsewhere is not read as a slowdown, and a slowdown that stays is.
 */
async function slowdown(alone: () => Promise<number>, together: () => Promise<number>): Promise<number> {
	const ratios: number[] = [];
	let before = await alone();
	for (let round = 0; round < 3; round++) {
		const time = await together();
		const after = await alone();
		ratios.push(time / ((before + after) / 2));
		before = after;
	}
	return Math.min(...ratios);
}

/** The writes Cloud4Wi applied to `ids` (2xx), as [arrival, answer] on its clock. */
function applied(sb: Sandbox, ids: string[]) {
	const paths = new Set(ids.map(policiesPath));
	return sb.requests.filter((r) => r.method === 'PUT' && paths.has(r.path) && r.status >= 200 && r.status < 300);
}

/** Most of these requests Cloud4Wi served at once. */
function mostAtOnce(requests: Array<{ at: number; doneAt?: number }>): number {
	const edges = requests.flatMap((r) => [
		[r.at, 1],
		[r.doneAt ?? Number.POSITIVE_INFINITY, -1],
	]);
	edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
	let now = 0;
	let most = 0;
	for (const [, step] of edges) most = Math.max(most, (now += step));
	return most;
}

/** How long Cloud4Wi was busy with these requests: from the first arrival to the last answer. */
const span = (requests: Array<{ at: number; doneAt?: number }>) =>
	Math.max(...requests.map((r) => r.doneAt ?? r.at)) - Math.min(...requests.map((r) => r.at));

/** Each contact's opt-in holds the value asked for (every other one accepted). */
function expectStateAsked(ids: string[]) {
	for (const [i, id] of ids.entries()) {
		const policy = ctx.sb.data.contacts.get(id)!.policies.find((p) => p.name === 'mktgCommunications');
		expect(policy?.accepted).toBe(i % 2 === 0);
	}
}

/** Every write applied exactly once, with the value asked for. */
function expectEachOnce(ids: string[]) {
	const writes = applied(ctx.sb, ids);
	expect(writes).toHaveLength(ids.length);
	expect(new Set(writes.map((w) => w.path)).size).toBe(ids.length);
	expectStateAsked(ids);
}

/** A run of `ids` alone, on the credential `ALONE`: how long Cloud4Wi was busy with it. */
async function timeAlone(ids: string[]): Promise<number> {
	ctx.sb.clearRequests();
	await writeOptIns(ids, undefined, ALONE);
	return span(applied(ctx.sb, ids));
}

describe('two executions at once on one credential, against a limit of 16 in flight', () => {
	test('one with Max Concurrent Requests 1 never has more than one in flight; the other barely slows down', async () => {
		ctx = await startCloud4Wi({ contacts: 1100, latencyMs: 20, maxInFlight: 16, retryAfterS: 1 });
		const ids = ctx.sb.data.contacts.map((c) => c.cid);
		await knowTheLimit(ids.slice(1000, 1100));
		await knowTheLimit(ids.slice(1000, 1100), ALONE);
		const [one, many] = [ids.slice(0, 40), ids.slice(100, 900)];
		const together = async () => {
			ctx.sb.clearRequests();
			await Promise.all([writeOptIns(one, 1), writeOptIns(many)]);
			expect(mostAtOnce(applied(ctx.sb, one))).toBe(1);
			expect(ctx.sb.rateLimited).toBe(0);
			expectEachOnce([...one, ...many]);
			return span(applied(ctx.sb, many));
		};
		expect(await slowdown(() => timeAlone(many), together)).toBeLessThanOrEqual(1.1);
	}, 60_000);

	test('four default executions at once share the limit: none fails, each write once, as fast as one run of all', async () => {
		ctx = await startCloud4Wi({ contacts: 1300, latencyMs: 20, maxInFlight: 16, retryAfterS: 1 });
		const ids = ctx.sb.data.contacts.map((c) => c.cid);
		await knowTheLimit(ids.slice(1200, 1300));
		await knowTheLimit(ids.slice(1200, 1300), ALONE);
		const all = ids.slice(0, 800);
		const together = async () => {
			ctx.sb.clearRequests();
			const parts = [0, 1, 2, 3].map((k) => all.slice(k * 200, (k + 1) * 200));
			await Promise.all(parts.map((part) => writeOptIns(part)));
			expect(mostAtOnce(applied(ctx.sb, all))).toBeLessThanOrEqual(16);
			expect(ctx.sb.rateLimited).toBe(0);
			expectEachOnce(all);
			return span(applied(ctx.sb, all));
		};
		expect(await slowdown(() => timeAlone(all), together)).toBeLessThanOrEqual(1.15);
	}, 60_000);
});

describe('a network that cuts 5 % of the answers', () => {
	test('opt-in updates: every item succeeds; a write whose answer was cut is sent again and leaves the same state', async () => {
		ctx = await startCloud4Wi({ contacts: 1000, latencyMs: 5, cutAnswersPercent: 5 });
		const ids = ctx.sb.data.contacts.map((c) => c.cid);
		await writeOptIns(ids);
		const writes = applied(ctx.sb, ids);
		const cut = new Set(writes.filter((w) => w.cut).map((w) => w.path));
		expect(cut.size).toBeGreaterThan(10);
		for (const id of ids) {
			const tries = writes.filter((w) => w.path === policiesPath(id));
			// Each cut answer was tried again until one came back: its state set again, to the same value.
			expect(tries.filter((w) => !w.cut)).toHaveLength(1);
			expect(tries.length).toBe(1 + tries.filter((w) => w.cut).length);
			const names = ctx.sb.data.contacts.get(id)!.policies.map((p) => p.name);
			expect(new Set(names).size).toBe(names.length);
		}
		expectStateAsked(ids);
	}, 60_000);

	test('creates: one whose answer was cut is never sent again; its item says it may have been applied', async () => {
		ctx = await startCloud4Wi({ contacts: 200, latencyMs: 5, cutAnswersPercent: 5 });
		const ids = ctx.sb.data.contacts.map((c) => c.cid);
		const result = await runAction(
			ctx,
			{ resource: 'contact', operation: 'createAccessCode', contactId: '={{ $json.id }}' },
			ids.map((id) => ({ id })),
			{ continueOnFail: true },
		);
		const posts = ctx.sb.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/otp'));
		expect(posts).toHaveLength(ids.length); // one each, cut or not
		const failed = result.json.filter((j) => j.error) as IDataObject[];
		expect(failed.length).toBe(posts.filter((p) => p.cut).length);
		expect(failed.length).toBeGreaterThan(0);
		for (const item of failed) {
			expect(item.description).toBe(
				'The write may or may not have been applied: check in Cloud4Wi before running it again.',
			);
		}
	}, 60_000);
});
