/** The credential's Base URL: what it may hold, and where the secret and the token go when it changes. */
import { runAction, CREDENTIAL_ID } from '../harness/cloud4wi';
import { standIn, storeFor, TOKEN } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';
import { testCredential } from '../harness/engine';

/**
 * The credential's Base URL check refuses a query or a fragment by testing `url.search || url.hash`, but WHATWG URL
 * gives "" for an EMPTY query ("…/?") or fragment ("…#"). Such a Base URL passes, and every path the node appends
 * lands in the query or fragment: every operation (and the login, with the secret) goes to the Base URL's own path.
 */
describe('an empty query or fragment', () => {
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
		await runAction(
			{ store: storeWith(`${si.url}/?`) },
			{
				resource: 'segment',
				operation: 'getAll',
				returnAll: true,
			},
		);
		const paths = si.requests.map((r) => `${r.method} ${r.path}`);
		// Wanted: nothing sent (the Base URL refused). What happens: the secret is POSTed to "/".
		expect(paths).toEqual([]);
	});
});

/**
 * The Test button's request is built from the raw `$credentials.baseUrl` (only trailing slashes removed), while the
 * node and the login use `cloud4WiBaseUrl` (trimmed, default applied). A Base URL with a trailing space works in
 * every node, but the Test button POSTs the key and secret to another endpoint ("/%20/v1/sts/login/services") and
 * reports the credential as broken.
 */
describe('spaces around it', () => {
	let si: StandIn;
	afterEach(async () => await si.close());

	test('Base URL with a trailing space: the Test button sends the secret only to the login endpoint, and passes', async () => {
		si = await standIn(() => undefined);
		const store = storeFor(`${si.url}/ `);
		const result = await testCredential(store, CREDENTIAL_ID);
		const withSecret = si.requests.filter((r) => r.rawBody.includes('secret-xyz')).map((r) => `${r.method} ${r.path}`);
		expect(withSecret.filter((p) => p !== 'POST /v1/sts/login/services')).toEqual([]);
		expect(result.status).toBe('OK');
	});
});

/**
 * The stored session token is sent to whatever Base URL the credential names now. A credential whose Base URL is
 * changed (to a test or regional environment, or mistyped) sends the token Cloud4Wi issued for the old address to
 * the new host, before any login there.
 */
describe('a Base URL changed', () => {
	let a: StandIn;
	let b: StandIn;
	afterEach(async () => {
		await a.close();
		await b.close();
	});

	test("a token issued by one Base URL is not sent to another after the credential's Base URL changes", async () => {
		const segments = { body: { size: 1, segments: [{ id: 's1', name: 'VIP' }] } };
		a = await standIn((r) =>
			r.path === '/v1/sts/login/services'
				? { body: { token: 'tok-from-A' } }
				: r.path.startsWith('/v2/segments/')
					? segments
					: undefined,
		);
		b = await standIn((r) => (r.path.startsWith('/v2/segments/') ? segments : undefined));
		const store = storeFor(a.url);
		await runAction({ store }, { resource: 'segment', operation: 'getAll', returnAll: true });
		const issuedByA = String(store.stored('cred-1').sessionToken);
		expect(issuedByA).toBe('tok-from-A');
		// The user edits the credential: a new Base URL; n8n keeps the hidden token field.
		store.set('cred-1', 'cloud4WiApi', { ...store.stored('cred-1'), baseUrl: b.url });
		await runAction({ store }, { resource: 'segment', operation: 'getAll', returnAll: true });
		const sentToB = b.requests.map((r) => r.headers.authorization ?? '');
		expect(sentToB).not.toContain(`Bearer ${issuedByA}`);
	});
});
