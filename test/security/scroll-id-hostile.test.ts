import { runAction } from '../harness/cloud4wi';
import { ORG, standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

let si: StandIn;
afterEach(async () => await si.close());
const HOSTILE = 'x&organizationId=other&size=1#/../../v1/sts/logout?\r\nX-Evil: 1 %2F..%2F';

test('a hostile scroll id goes back as one query value on the same path', async () => {
	si = await standIn((r) => {
		if (r.path !== `/v2/customers/organizations/${ORG}`) return undefined;
		if (!r.query.sId && !r.query.sid)
			return { body: { totalCount: 2, count: 1, sId: HOSTILE, customers: [{ cid: 'c1' }] } };
		return { body: { totalCount: 2, count: 1, sId: HOSTILE, customers: [{ cid: 'c2' }] } };
	});
	await runAction(si, {
		resource: 'contact',
		operation: 'getAll',
		returnAll: true,
		filters: {},
		simplify: false,
	});
	const api = si.requests.filter((r) => !r.path.startsWith('/v1/sts/login'));
	expect(api.every((r) => r.path === `/v2/customers/organizations/${ORG}`)).toBe(true);
	expect(
		api.slice(1).every((r) => (r.query.sid ?? r.query.sId) === HOSTILE && r.query.organizationId === undefined),
	).toBe(true);
	expect(api.every((r) => r.headers['x-evil'] === undefined)).toBe(true);
});
