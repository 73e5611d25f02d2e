/**
 * The Test button's request is built from the raw `$credentials.baseUrl` (only trailing slashes removed), while the
 * node and the login use `cloud4WiBaseUrl` (trimmed, default applied). A Base URL with a trailing space works in
 * every node, but the Test button POSTs the key and secret to another endpoint ("/%20/v1/sts/login/services") and
 * reports the credential as broken.
 */
import { CREDENTIAL_ID } from '../harness/cloud4wi';
import { testCredential } from '../harness/engine';
import { standIn, storeFor } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

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
