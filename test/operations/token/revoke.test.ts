/** Token > Revoke, run through the engine against the sandbox. */
import type { INodeParameters } from 'n8n-workflow';

import type { TestContext } from '../../harness/cloud4wi';
import { apiCalls, CREDENTIAL_ID, runAction, runFailure, sentCalls, startCloud4Wi } from '../../harness/cloud4wi';

const segments = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'segment',
	operation: 'getAll',
	...extra,
});
const revoke: INodeParameters = { resource: 'token', operation: 'revoke' };
describe('token Revoke', () => {
	let ctx: TestContext;
	beforeEach(async () => {
		ctx = await startCloud4Wi();
	});
	afterEach(async () => await ctx.sb.close());

	test('logs out the stored token; the next operation logs in again', async () => {
		await runAction(ctx, segments({ limit: 1 })); // logs in and stores a token
		const token = String(ctx.store.stored(CREDENTIAL_ID).sessionToken);
		expect(ctx.sb.logins).toBe(1);
		ctx.sb.clearRequests();

		const result = await runAction(ctx, revoke);
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ revoked: true }]);
		expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }]);
		expect(sentCalls(ctx)).toEqual([{ method: 'POST', path: '/v1/sts/logout', query: {}, body: undefined }]);
		expect(ctx.sb.requests.map((r) => [r.path, r.authorization, r.status])).toEqual([
			['/v1/sts/logout', `Bearer ${token}`, 200],
		]);
		expect(ctx.sb.logins).toBe(1);

		ctx.sb.clearRequests();
		const next = await runAction(ctx, segments({ limit: 2 }));
		expect(next.error).toBeUndefined();
		expect(next.json).toEqual(ctx.sb.data.segments.slice(0, 2));
		expect(ctx.sb.logins).toBe(2);
		expect(ctx.store.logins).toBe(2);
		const fresh = String(ctx.store.stored(CREDENTIAL_ID).sessionToken);
		expect(fresh).not.toBe(token);
		// The revoked token is refused once, then the request goes again with the new one.
		expect(ctx.sb.requests.map((r) => [r.method, r.path, r.status, r.authorization])).toEqual([
			['GET', `/v2/segments/organizations/${ctx.sb.organizationId}`, 403, `Bearer ${token}`],
			['POST', '/v1/sts/login/services', 200, undefined],
			['GET', `/v2/segments/organizations/${ctx.sb.organizationId}`, 200, `Bearer ${fresh}`],
		]);
	});

	test('two items log out in one run: the second logs in first, and never sends the token the first revoked', async () => {
		await runAction(ctx, segments({ limit: 1 })); // logs in and stores a token
		const token = String(ctx.store.stored(CREDENTIAL_ID).sessionToken);
		ctx.sb.clearRequests();
		const result = await runAction(ctx, { ...revoke, requestOptions: { maxConcurrentRequests: 1 } }, [{}, {}]);
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ revoked: true }, { revoked: true }]);
		const fresh = ctx.sb.requests[2]?.authorization;
		expect(fresh).not.toBe(`Bearer ${token}`);
		expect(ctx.sb.requests.map((r) => [r.method, r.path, r.status, r.authorization])).toEqual([
			['POST', '/v1/sts/logout', 200, `Bearer ${token}`],
			['POST', '/v1/sts/login/services', 200, undefined],
			['POST', '/v1/sts/logout', 200, fresh],
		]);
	});

	test('a 5xx from logout is a NodeApiError, and logout (a write) is not retried', async () => {
		ctx.sb.addFault({ path: '^/v1/sts/logout$', status: 500, times: 3 });
		const result = await runAction(ctx, revoke);
		expect(runFailure(result)).toEqual({
			name: 'NodeApiError',
			message: 'Internal Server Error',
			description: 'The write may or may not have been applied: check in Cloud4Wi before running it again.',
			httpCode: '500',
		});
		expect(apiCalls(ctx.sb)).toEqual(['POST /v1/sts/logout']);
	});

	test('a token that already expired is renewed and the new one revoked, so the credential ends without a live token', async () => {
		await runAction(ctx, segments({ limit: 1 }));
		ctx.sb.expireTokens();
		ctx.sb.clearRequests();
		const result = await runAction(ctx, revoke);
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ revoked: true }]);
		expect(ctx.sb.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
			'POST /v1/sts/logout 401',
			'POST /v1/sts/login/services 200',
			'POST /v1/sts/logout 200',
		]);
	});
});
