/**
 * The credential's Base URL check refuses a query or a fragment by testing `url.search || url.hash`, but WHATWG URL
 * gives "" for an EMPTY query ("…/?") or fragment ("…#"). Such a Base URL passes, and every path the node appends
 * lands in the query or fragment: every operation (and the login, with the secret) goes to the Base URL's own path.
 */
import { runAction } from '../harness/cloud4wi';
import { standIn, storeFor, TOKEN } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

let si: StandIn;
afterEach(async () => await si.close());

const storeWith = (baseUrl: string, sessionToken = '') => storeFor(baseUrl, { sessionToken });

test('Base URL ending in an empty fragment: Contact > Delete of "c-other" deletes the contact named in the Base URL', async () => {
	si = await standIn((r) => (r.method === 'DELETE' ? { status: 204 } : undefined));
	const result = await runAction(
		{ store: storeWith(`${si.url}/v1/customers/c-victim#`, TOKEN) },
		{
			resource: 'contact',
			operation: 'delete',
			contactId: 'c-other',
		},
	);
	// Wanted: the Base URL refused before anything is sent, or at least the DELETE sent for the contact asked for.
	expect(si.requests.map((r) => `${r.method} ${r.path}`)).not.toContain('DELETE /v1/customers/c-victim');
	expect(result.error).toBeDefined();
});

test('Base URL ending in an empty query: the login (with the secret) and every request go to "/", not their endpoint', async () => {
	si = await standIn(() => undefined);
	await runAction({ store: storeWith(`${si.url}/?`) }, {
		resource: 'segment',
		operation: 'getAll',
		returnAll: true,
	});
	const paths = si.requests.map((r) => `${r.method} ${r.path}`);
	// Wanted: nothing sent (the Base URL refused). What happens: the secret is POSTed to "/".
	expect(paths).toEqual([]);
});
