import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { testCredential } from '../harness/engine';
import type { TestContext } from '../harness/cloud4wi';
import { apiCalls, CREDENTIAL_ID, runAction, startCloud4Wi } from '../harness/cloud4wi';

/** Another host, as far as a redirect goes: it records what reaches it. */
interface Catcher {
	url: string;
	seen: Array<{ method: string; path: string; headers: IncomingHttpHeaders; body: string }>;
	close(): Promise<void>;
}

async function startCatcher(): Promise<Catcher> {
	const seen: Catcher['seen'] = [];
	const server: Server = createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
		req.on('end', () => {
			seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ token: 'caught', data: { id: 'caught' } }));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		seen,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

let ctx: TestContext;
let catcher: Catcher;
beforeEach(async () => {
	ctx = await startCloud4Wi({ contacts: 3 });
	catcher = await startCatcher();
});
afterEach(async () => {
	await ctx.sb.close();
	await catcher.close();
});

test.each([301, 302, 303, 307, 308])(
	'a read answered with a %i to another host: not followed, the token stays home, the error names the target',
	async (status) => {
		const cid = ctx.sb.data.contacts[0]!.cid;
		ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/', status, location: `${catcher.url}/steal?x=1` });
		const result = await runAction(ctx, { resource: 'contact', operation: 'get', contactId: cid });
		expect(result.error?.message).toBe(
			`Cloud4Wi answered with a redirect (HTTP ${status}) to ${catcher.url}/steal, which was not followed`,
		);
		expect(result.error?.description).toMatch(/^The token is sent only to the credential's Base URL/);
		expect((result.error as { httpCode?: string }).httpCode).toBe(String(status));
		expect(catcher.seen).toEqual([]);
		// Asked once: a redirect is an answer, not a failure to retry.
		expect(apiCalls(ctx.sb)).toHaveLength(1);
		expect(result.items).toEqual([]);
	},
);

test('a write answered with a 307 is not sent on, and Continue On Fail gives the error as the item', async () => {
	const cid = ctx.sb.data.contacts[0]!.cid;
	ctx.sb.addFault({ method: 'PUT', status: 307, location: `${catcher.url}/v2/elsewhere` });
	const result = await runAction(
		ctx,
		{
			resource: 'contact',
			operation: 'updateOptIns',
			contactId: cid,
			optIns: { optIn: [{ policy: 'mktgCommunications', accepted: true }] },
		},
		[{}],
		{ onError: 'continueRegularOutput' },
	);
	expect(result.json).toEqual([
		expect.objectContaining({
			error: `Cloud4Wi answered with a redirect (HTTP 307) to ${catcher.url}/v2/elsewhere, which was not followed`,
			httpCode: '307',
		}),
	]);
	expect(result.items[0]!.pairedItem).toEqual({ item: 0 });
	expect(catcher.seen).toEqual([]);
	expect(apiCalls(ctx.sb)).toEqual([`PUT /v1/customers/${cid}/policies`]);
});

test('a relative Location is named against the Base URL, and nothing follows it', async () => {
	const cid = ctx.sb.data.contacts[0]!.cid;
	ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/', status: 302, location: '/moved/here' });
	const result = await runAction(ctx, { resource: 'contact', operation: 'get', contactId: cid });
	expect(result.error?.message).toBe(
		`Cloud4Wi answered with a redirect (HTTP 302) to ${ctx.sb.url}/moved/here, which was not followed`,
	);
	expect(apiCalls(ctx.sb)).toHaveLength(1);
});

test.each([
	['no Location', undefined, 'no address'],
	['a Location that is not a URL', 'http://[oops', 'an address that is not a URL'],
])('a redirect with %s still fails clearly', async (_case, location, named) => {
	const cid = ctx.sb.data.contacts[0]!.cid;
	ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/', status: 302, location });
	const result = await runAction(ctx, { resource: 'contact', operation: 'get', contactId: cid });
	expect(result.error?.message).toBe(
		`Cloud4Wi answered with a redirect (HTTP 302) to ${named}, which was not followed`,
	);
	expect(apiCalls(ctx.sb)).toHaveLength(1);
});

test.each([307, 308])(
	'a login answered with a %i: the secret is not posted on, and the login fails',
	async (status) => {
		ctx.sb.addFault({ path: '^/v1/sts/login/', status, location: `${catcher.url}/login` });
		const result = await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true });
		expect(result.error?.message).toMatch(new RegExp(`^Cloud4Wi login failed \\(HTTP ${status}\\)`));
		expect(catcher.seen).toEqual([]);
		expect(JSON.stringify(result.run)).not.toContain(ctx.sb.credentials.clientSecret);
		expect(apiCalls(ctx.sb)).toEqual([]);
	},
);

test("the Test button's own request after n8n's login is not redirected either: the secret is not posted on", async () => {
	// n8n logs in first (answered), then sends the Test button's request, which is answered with a 308.
	ctx.sb.addFault({ path: '^/v1/sts/login/', status: 308, location: `${catcher.url}/login`, skip: 1 });
	const result = await testCredential(ctx.store, CREDENTIAL_ID);
	expect(result.status).toBe('Error');
	expect(catcher.seen).toEqual([]);
	expect(ctx.sb.requests.map((r) => r.status)).toEqual([200, 308]);
});

test("the credential's Test button does not follow a redirect of the login either", async () => {
	ctx.sb.addFault({ path: '^/v1/sts/login/', status: 308, location: `${catcher.url}/login`, times: 5 });
	const result = await testCredential(ctx.store, CREDENTIAL_ID);
	expect(result.status).toBe('Error');
	expect(catcher.seen).toEqual([]);
});
