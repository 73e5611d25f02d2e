/**
 * Login answers a spec-conforming stand-in may give. Spec: "200: body `token` string; the token is also in the
 * Authorization header". Vendor notes, "Status codes the vendor documents for all endpoints": "201 | request accepted".
 * "Where the two disagree, handle both": any 2xx with a token, in the body or only in the header, logs in.
 */
import { CREDENTIAL_ID, runAction } from '../harness/cloud4wi';
import { testCredential } from '../harness/engine';
import { ORG, standIn, TOKEN } from '../harness/stand-in';
import type { InRequest, Reply, StandIn } from '../harness/stand-in';

let si: StandIn;
afterEach(async () => await si.close());

const segments = (r: InRequest): Reply | undefined => {
	if (r.path !== `/v2/segments/organizations/${ORG}`) return undefined;
	if (r.headers.authorization !== `Bearer ${TOKEN}`) return { status: 401, body: { message: 'Token is invalid' } };
	return { body: { generated: new Date().toISOString(), size: 1, segments: [{ id: 's1', name: 'VIP' }] } };
};

const variants: Array<[string, Reply]> = [
	['201 with token in body and header', { status: 201, headers: { Authorization: TOKEN }, body: { token: TOKEN } }],
	['200, token only in the Authorization header, no body', { headers: { Authorization: TOKEN } }],
	[
		'200, token only in the header as "Bearer <jwt>", body {}',
		{ headers: { authorization: `Bearer ${TOKEN}` }, body: {} },
	],
];

describe.each(variants)('login answers %s', (_name, login) => {
	const handler = (r: InRequest) => (r.path === '/v1/sts/login/services' ? login : segments(r));

	test('an operation works', async () => {
		si = await standIn(handler);
		const result = await runAction(si, {
			resource: 'segment',
			operation: 'getAll',
			returnAll: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toEqual([{ id: 's1', name: 'VIP' }]);
	});

	test('the Test button says OK', async () => {
		si = await standIn(handler);
		const result = await testCredential(si.store, CREDENTIAL_ID);
		expect(result.status).toBe('OK');
	});
});
