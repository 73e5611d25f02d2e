/**
 * Found by the errors scan: a refused login reached the user as a NodeApiError without its HTTP status (`httpCode`), in
 * the error and in Continue On Fail items, unlike every other refusal; only the message's text named it.
 */
import { runAction, triggerWorkflow } from '../harness/cloud4wi';
import { atScale, buildWorkflow, pollOnce } from '../harness/engine';
import { standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

let si: StandIn;
afterEach(async () => await si.close());

const getContact = { resource: 'contact', operation: 'get', contactId: '={{ $json.cid }}' };
const asCtx = () => si;

test.each([401, 403, 400, 503])('a login refused with %s: every item and the poll carry the status', async (status) => {
	si = await standIn((r) =>
		r.path === '/v1/sts/login/services' ? { status, body: { message: 'Key disabled (HTTP 999)' } } : undefined,
	);
	const failed = await atScale(1 / 50, () => runAction(asCtx(), getContact, [{ cid: 'c-1' }]));
	expect(failed.error?.message).toMatch(new RegExp(`^Cloud4Wi login failed \\(HTTP ${status}\\): Key disabled`));
	expect(failed.error?.httpCode).toBe(String(status));
	const items = await atScale(1 / 50, () =>
		runAction(asCtx(), getContact, [{ cid: 'c-1' }, { cid: 'c-2' }, { cid: 'c-3' }], { continueOnFail: true }),
	);
	expect(items.json.map((j) => j.httpCode)).toEqual([String(status), String(status), String(status)]);
	const poll = await atScale(1 / 50, () =>
		pollOnce(buildWorkflow(triggerWorkflow({ events: [] })), si.store, 'Trigger').then(
			() => undefined,
			(error: Error & { httpCode?: string }) => error,
		),
	);
	expect(poll?.httpCode).toBe(String(status));
});

test('a login with no answer: no status is made up', async () => {
	si = await standIn(() => undefined);
	const store = si.store;
	await si.close(); // nothing listens there any more
	const failed = await runAction({ store }, getContact, [{ cid: 'c-1' }]);
	expect(failed.error?.message).toMatch(/^Cloud4Wi login failed: no answer from/);
	expect(failed.error?.httpCode ?? undefined).toBeUndefined();
	si = await standIn(() => undefined); // for afterEach
});
