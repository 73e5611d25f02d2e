/**
 * Executions that share a credential in one process, as a queue worker runs several at once: each keeps its own Max
 * Concurrent Requests, together they share the service's limit, and nothing fails or doubles. Then writes over a
 * network that cuts answers: an update is sent again, a create is not.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../sandbox';
import type { TestContext } from '../harness/cloud4wi';
import { runAction, startCloud4Wi } from '../harness/cloud4wi';

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

/** Opt-in writes for `ids`, every other one accepted; the run must fail no item. */
async function writeOptIns(ids: string[], max?: number) {
	const result = await runAction(
		ctx,
		optIn(max),
		ids.map((id, i) => ({ id, accepted: i % 2 === 0 })),
	);
	expect(result.error).toBeUndefined();
	expect(result.json.filter((j) => j.error)).toEqual([]);
	return result;
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

/** Every write applied exactly once, with the value asked for. */
function expectEachOnce(ids: string[]) {
	const writes = applied(ctx.sb, ids);
	expect(writes).toHaveLength(ids.length);
	expect(new Set(writes.map((w) => w.path)).size).toBe(ids.length);
	for (const [i, id] of ids.entries()) {
		const policy = ctx.sb.data.contacts.get(id)!.policies.find((p) => p.name === 'mktgCommunications');
		expect(policy?.accepted).toBe(i % 2 === 0);
	}
}

describe('two executions at once on one credential, against a limit of 16 in flight', () => {
	test('one with Max Concurrent Requests 1 never has more than one in flight; the other barely slows down', async () => {
		ctx = await startCloud4Wi({ contacts: 1100, latencyMs: 20, maxInFlight: 16, retryAfterS: 1 });
		const ids = ctx.sb.data.contacts.map((c) => c.cid);
		await writeOptIns(ids.slice(1000, 1100)); // finds the limit: both runs below start at it
		const [one, many] = [ids.slice(0, 40), ids.slice(100, 900)];
		ctx.sb.clearRequests();
		await writeOptIns(many);
		const alone = span(applied(ctx.sb, many));
		ctx.sb.clearRequests();
		await Promise.all([writeOptIns(one, 1), writeOptIns(many)]);
		expect(mostAtOnce(applied(ctx.sb, one))).toBe(1);
		expect(span(applied(ctx.sb, many)) / alone).toBeLessThanOrEqual(1.1);
		expect(ctx.sb.rateLimited).toBe(0);
		expectEachOnce([...one, ...many]);
	}, 60_000);

	test('four default executions at once share the limit: none fails, each write once, as fast as one run of all', async () => {
		ctx = await startCloud4Wi({ contacts: 1300, latencyMs: 20, maxInFlight: 16, retryAfterS: 1 });
		const ids = ctx.sb.data.contacts.map((c) => c.cid);
		await writeOptIns(ids.slice(1200, 1300));
		ctx.sb.clearRequests();
		await writeOptIns(ids.slice(0, 800));
		const oneRun = span(applied(ctx.sb, ids.slice(0, 800)));
		ctx.sb.clearRequests();
		const parts = [0, 1, 2, 3].map((k) => ids.slice(k * 200, (k + 1) * 200));
		await Promise.all(parts.map((part) => writeOptIns(part.map((id) => id))));
		const together = applied(ctx.sb, ids.slice(0, 800));
		expect(span(together) / oneRun).toBeLessThanOrEqual(1.15);
		expect(mostAtOnce(together)).toBeLessThanOrEqual(16);
		expectEachOnce(ids.slice(0, 800));
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
		for (const [i, id] of ids.entries()) {
			const policy = ctx.sb.data.contacts.get(id)!.policies.find((p) => p.name === 'mktgCommunications');
			expect(policy?.accepted).toBe(i % 2 === 0);
		}
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
