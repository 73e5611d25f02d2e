import { request } from 'undici';

import { testCredential } from '../harness/engine';
import type { TestContext } from '../harness/cloud4wi';
import { apiCalls, CREDENTIAL_ID, runAction, startCloud4Wi } from '../harness/cloud4wi';

const listSegments = { resource: 'segment', operation: 'getAll', returnAll: true };
const listContacts = { resource: 'contact', operation: 'getAll', returnAll: true };

describe('Cloud4Wi credential', () => {
	let ctx: TestContext;
	afterEach(async () => await ctx.sb.close());

	test('the Test button passes with the right key and secret, and stores the token', async () => {
		ctx = await startCloud4Wi();
		const result = await testCredential(ctx.store, CREDENTIAL_ID);
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(ctx.sb.requests.every((r) => r.path === '/v1/sts/login/services' && r.method === 'POST')).toBe(true);
		expect(ctx.sb.requests.length).toBeGreaterThan(0);
	});

	test('the Test button fails clearly with a wrong secret, without showing it', async () => {
		ctx = await startCloud4Wi({}, { clientSecret: 'wrong-secret-123456' });
		const result = await testCredential(ctx.store, CREDENTIAL_ID);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/client key or secret/i);
		expect(result.message).not.toContain('wrong-secret-123456');
		expect(ctx.sb.logins).toBe(0);
	});

	test('the Test button names an unreachable base URL', async () => {
		ctx = await startCloud4Wi({}, { baseUrl: 'http://127.0.0.1:9' });
		const result = await testCredential(ctx.store, CREDENTIAL_ID);
		expect(result).toEqual({
			status: 'Error',
			message: 'Cloud4Wi login failed: no answer from http://127.0.0.1:9/v1/sts/login/services (connection refused)',
		});
	});

	test('a node run against an unreachable base URL fails with the login error, the secret nowhere in it', async () => {
		ctx = await startCloud4Wi({}, { baseUrl: 'http://127.0.0.1:9' });
		const result = await runAction(ctx, listSegments);
		expect(result.error?.message).toBe(
			'Cloud4Wi login failed: no answer from http://127.0.0.1:9/v1/sts/login/services (connection refused)',
		);
		expect(JSON.stringify(result.run)).not.toContain(ctx.sb.credentials.clientSecret);
		expect(ctx.sb.requests).toEqual([]);
	});

	const HTTPS_ONLY =
		/^Cloud4Wi credential, Base URL: "http:\/\/[^"]+" must start with https:\/\/ \(plain http:\/\/ is allowed only to this machine\)/i;

	test.each([
		'http://explore.cloud4wi.com',
		'http://10.0.0.5:8080',
		'HTTP://api.example.org/v',
		'http://127.0.0.1.example.com',
	])('a plain-HTTP base URL to a remote host (%s) is refused at Test, before anything is sent', async (baseUrl) => {
		ctx = await startCloud4Wi({}, { baseUrl });
		const result = await testCredential(ctx.store, CREDENTIAL_ID);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(HTTPS_ONLY);
	});

	test('a plain-HTTP remote base URL is refused at use: every item fails with the reason, nothing is sent', async () => {
		ctx = await startCloud4Wi({}, { baseUrl: 'http://explore.cloud4wi.com' });
		const result = await runAction(ctx, { resource: 'contact', operation: 'get', contactId: 'c-1' }, [{}, {}], {
			continueOnFail: true,
		});
		expect(result.json).toHaveLength(2);
		for (const json of result.json) expect(String(json.error)).toMatch(HTTPS_ONLY);
		expect(ctx.sb.requests).toEqual([]);
		expect(JSON.stringify(result.run)).not.toContain(ctx.sb.credentials.clientSecret);
	});

	test.each([
		'ftp://explore.cloud4wi.com',
		'https://user:pw@explore.cloud4wi.com',
		'https://explore.cloud4wi.com/?x=1',
		'not a url',
	])('a base URL that is not plain scheme, host and path (%s) is refused at Test', async (baseUrl) => {
		ctx = await startCloud4Wi({}, { baseUrl });
		const result = await testCredential(ctx.store, CREDENTIAL_ID);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Cloud4Wi credential, Base URL: /);
		expect(result.message).not.toContain('pw@');
	});

	test('ten executions log in once: the token is stored in the credential and reused', async () => {
		ctx = await startCloud4Wi();
		for (let run = 0; run < 10; run++) {
			const { error, json } = await runAction(ctx, listSegments);
			expect(error).toBeUndefined();
			expect(json.length).toBeGreaterThan(0);
		}
		expect(ctx.sb.logins).toBe(1);
		expect(ctx.store.logins).toBe(1);
		expect(ctx.store.stored(CREDENTIAL_ID).sessionToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
		const authorizations = new Set(
			ctx.sb.requests.filter((r) => r.path.startsWith('/v2/')).map((r) => r.authorization),
		);
		expect(authorizations.size).toBe(1);
	});

	test.each([403, 401] as const)(
		'a token that expires in the middle of a Return All (%i) is renewed once and the listing completes',
		async (status) => {
			ctx = await startCloud4Wi({ contacts: 25_000, expiredStatus: status });
			await runAction(ctx, listSegments); // logs in and stores a token
			ctx.sb.clearRequests();
			// The second page of the scroll finds every token expired.
			ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/organizations/', expireTokens: true, skip: 1 });
			const { error, json } = await runAction(ctx, listContacts);
			expect(error).toBeUndefined();
			expect(json).toHaveLength(25_000);
			expect(new Set(json.map((c) => c.cid)).size).toBe(25_000);
			expect(ctx.sb.logins).toBe(2);
			const pages = ctx.sb.requests.filter((r) => r.path.startsWith('/v2/customers/organizations/'));
			expect(pages.map((r) => r.status)).toEqual([200, status, 200, 200]);
			expect(pages.map((r) => r.query.size)).toEqual(['10000', '10000', '10000', '10000']);
			expect(pages[0].query.sid).toBeUndefined();
			expect(pages[1].query.sid).toBeDefined();
			expect(pages[2].query.sid).toBe(pages[1].query.sid);
		},
	);

	test('a revoked token is renewed on the next request', async () => {
		ctx = await startCloud4Wi();
		const revoke = await runAction(ctx, { resource: 'token', operation: 'revoke' });
		expect(revoke.json).toEqual([{ revoked: true }]);
		const { error, json } = await runAction(ctx, listSegments);
		expect(error).toBeUndefined();
		expect(json.length).toBe(ctx.sb.data.segments.length);
		expect(apiCalls(ctx.sb)).toEqual([
			'POST /v1/sts/logout',
			`GET /v2/segments/organizations/${ctx.sb.organizationId}`,
			`GET /v2/segments/organizations/${ctx.sb.organizationId}`,
		]);
		expect(ctx.sb.logins).toBe(2);
	});

	test('a token an earlier run logged in for and never saw work, expired since: the next run renews it', async () => {
		ctx = await startCloud4Wi();
		// The first run logs in, and its only request fails: the token is never shown to work.
		ctx.sb.addFault({ method: 'POST', path: '/otp$', status: 500, times: 1 });
		const contactId = ctx.sb.data.contacts[0]!.cid;
		const failed = await runAction(ctx, { resource: 'contact', operation: 'createAccessCode', contactId });
		expect(failed.error?.httpCode).toBe('500');
		// Later, that token has expired, and the credential holds none (edited, say): an expiry, not a lack of rights.
		ctx.sb.expireTokens();
		ctx.store.set(CREDENTIAL_ID, 'cloud4WiApi', { ...ctx.store.stored(CREDENTIAL_ID), sessionToken: '' });
		ctx.sb.clearRequests();
		const { error, json } = await runAction(ctx, listSegments);
		expect(error).toBeUndefined();
		expect(json.length).toBe(ctx.sb.data.segments.length);
		const segments = `GET /v2/segments/organizations/${ctx.sb.organizationId}`;
		expect(apiCalls(ctx.sb)).toEqual([segments, segments]);
		expect(ctx.sb.requests.filter((r) => r.path.startsWith('/v2/')).map((r) => r.status)).toEqual([403, 200]); // Cloud4Wi's expiry
		expect(ctx.sb.logins).toBe(2);
	});

	test('another worker stored a newer token, and both have expired since: one login, and the run goes on', async () => {
		ctx = await startCloud4Wi();
		await runAction(ctx, listSegments); // this process logs in, and remembers its token
		const mine = String(ctx.store.stored(CREDENTIAL_ID).sessionToken);
		// Another worker's login, stored in the credential they share.
		const { clientKey, clientSecret } = ctx.sb.credentials;
		const res = await request(`${ctx.sb.url}/v1/sts/login/services`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ clientKey, clientSecret }),
		});
		const theirs = String(((await res.body.json()) as { token: string }).token);
		expect(theirs).not.toBe(mine);
		ctx.store.set(CREDENTIAL_ID, 'cloud4WiApi', { ...ctx.store.stored(CREDENTIAL_ID), sessionToken: theirs });
		ctx.sb.expireTokens();
		ctx.sb.clearRequests();
		const { error, json } = await runAction(ctx, listSegments);
		expect(error).toBeUndefined();
		expect(json.length).toBe(ctx.sb.data.segments.length);
		const segments = ctx.sb.requests.filter((r) => r.path.startsWith('/v2/'));
		// The stored token, then the one this process remembers (it cannot tell which is older), then a login: each once.
		expect(segments.map((r) => r.status)).toEqual([403, 403, 200]);
		expect(segments.map((r) => r.authorization).slice(0, 2)).toEqual([`Bearer ${theirs}`, `Bearer ${mine}`]);
		expect(ctx.sb.logins).toBe(3);
		expect(ctx.store.stored(CREDENTIAL_ID).sessionToken).not.toBe(theirs);
	});

	test('a wrong secret fails the node with a clear error that never contains the secret', async () => {
		const secret = 'wrong-secret-abcdef';
		ctx = await startCloud4Wi({}, { clientSecret: secret });
		const result = await runAction(ctx, listSegments);
		expect(result.error?.message).toMatch(/Cloud4Wi login failed \(HTTP 401\).*client key and secret/);
		const everything = JSON.stringify({ run: result.run, stored: ctx.store.stored(CREDENTIAL_ID).sessionToken });
		expect(everything).not.toContain(secret);
		expect(apiCalls(ctx.sb)).toEqual([]);
	});

	test('with continue on fail, the login error is an item and the token never appears in output', async () => {
		ctx = await startCloud4Wi();
		await runAction(ctx, listSegments);
		const token = String(ctx.store.stored(CREDENTIAL_ID).sessionToken);
		ctx.sb.setExpiredStatus(403);
		ctx.sb.addFault({
			path: '^/v2/segments/',
			status: 403,
			times: 2,
			body: { message: 'Forbidden: missing scope segments_read' },
		});
		const result = await runAction(ctx, listSegments, [{}], { continueOnFail: true });
		expect(result.json).toEqual([
			expect.objectContaining({ error: 'Forbidden: missing scope segments_read', httpCode: '403' }),
		]);
		expect(String(result.json[0].description)).toMatch(/segments_read/);
		expect(JSON.stringify(result.run)).not.toContain(token);
		expect(JSON.stringify(result.run)).not.toContain(ctx.sb.credentials.clientSecret);
	});
});
