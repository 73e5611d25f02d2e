/**
 * The stored session token is sent to whatever Base URL the credential names now. A credential whose Base URL is
 * changed (to a test or regional environment, or mistyped) sends the token Cloud4Wi issued for the old address to
 * the new host, before any login there.
 */
import { runAction } from '../harness/cloud4wi';
import { standIn, storeFor } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

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
