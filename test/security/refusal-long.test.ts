/**
 * Found by the errors scan: a refusal's message of 5 MB (a service quoting a large request or a stack dump) became the
 * error's message whole: shown in the editor, stored with the execution twice over (10 MB per failed item), and in every
 * Continue On Fail item. The words are cut at MOST_SAID_CHARS, saying how long they were; a secret at the cut is masked.
 */
import { CREDENTIAL_ID, runAction } from '../harness/cloud4wi';
import { errorText, lastThrownError, testCredential } from '../harness/engine';
import { standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

let si: StandIn;
afterEach(async () => await si.close());

const getContact = { resource: 'contact', operation: 'get', contactId: 'c-1' };
const asCtx = () => si;
const HUGE = 5 * 1024 * 1024;
const cut = `${'x'.repeat(2000)}… (${HUGE} characters in all)`;

test('a 409 whose message is 5 MB: the error holds its first 2,000 characters and says how long it was', async () => {
	si = await standIn((r) =>
		r.path.startsWith('/v2/customers/') ? { status: 409, body: { message: 'x'.repeat(HUGE) } } : undefined,
	);
	const failed = await runAction(asCtx(), getContact);
	expect(failed.error?.message).toBe(cut);
	expect(failed.error?.httpCode).toBe('409');
	expect(errorText(lastThrownError()).length).toBeLessThan(20_000);
	expect(JSON.stringify(failed.run).length).toBeLessThan(50_000);
	const items = await runAction(asCtx(), getContact, [{}, {}], { continueOnFail: true });
	expect(items.json).toEqual([expect.objectContaining({ error: cut }), expect.objectContaining({ error: cut })]);
	expect(JSON.stringify(items.run).length).toBeLessThan(50_000);
});

test('a refused login whose message is 5 MB and holds the secret at the cut: cut, and no part of the secret shown', async () => {
	const secret = 'secret-xyz'; // storeFor's
	const message = `${'x'.repeat(1995)}${secret}${'y'.repeat(HUGE)}`;
	si = await standIn((r) => (r.path === '/v1/sts/login/services' ? { status: 401, body: { message } } : undefined));
	const failed = await runAction(asCtx(), getContact);
	expect(failed.error?.message).toBe(
		`Cloud4Wi login failed (HTTP 401): ${'x'.repeat(1995)}***${'y'.repeat(2)}… (${1995 + 3 + HUGE} characters in all). Check the client key and secret in the Cloud4Wi credential.`,
	);
	const tested = await testCredential(si.store, CREDENTIAL_ID);
	expect(tested.message).toBe(failed.error?.message);
});
