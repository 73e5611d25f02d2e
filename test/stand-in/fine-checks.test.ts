/** Variations of a spec-conforming stand-in that the node already handled, kept so that they stay handled. */
import { runAction, startCloud4Wi } from '../harness/cloud4wi';
import { ORG, standIn } from '../harness/stand-in';

test('429 with Retry-After as an HTTP date is waited for, then retried', async () => {
	const ctx = await startCloud4Wi();
	const when = new Date(Date.now() + 2000).toUTCString();
	ctx.sb.addFault({ method: 'GET', path: '/segments/', status: 429, retryAfter: when });
	const started = Date.now();
	const result = await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true });
	expect(result.error).toBeUndefined();
	expect(Date.now() - started).toBeGreaterThanOrEqual(900);
	await ctx.sb.close();
});

test('schema-form events (type/id at top level), numbers as strings, scroll id that never changes, empty last page', async () => {
	const events = Array.from({ length: 7 }, (_, i) => ({ type: i % 2 ? 'arriving' : 'signup', id: `e${i}l` }));
	let served = 0;
	const si = await standIn((r) => {
		if (r.path !== `/v1/organizations/${ORG}/events`) return undefined;
		const size = Number(r.query.size);
		const page = events.slice(served, served + size);
		served += page.length;
		return { body: { status: 'ok', generated: 'x', count: String(page.length), events: page, scrollId: 'same' } };
	});
	const result = await runAction(si, {
		resource: 'event',
		operation: 'getAll',
		returnAll: false,
		limit: 3,
		filters: { events: ['arriving'] },
		simplify: true,
	});
	expect(result.error).toBeUndefined();
	expect(result.json.map((e) => [e.id, e.type])).toEqual([
		['e1l', 'arriving'],
		['e3l', 'arriving'],
		['e5l', 'arriving'],
	]);
	await si.close();
});
