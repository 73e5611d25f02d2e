/** What a refusal from Cloud4Wi shows: its words, whatever shape they come in, with the status, cut when too long. */
import { CREDENTIAL_ID, runAction } from '../harness/cloud4wi';
import { atScale, lastThrownError, testCredential, errorText } from '../harness/engine';
import { standIn } from '../harness/stand-in';
import type { Reply, StandIn } from '../harness/stand-in';

/**
 * A refusal whose words are not in a top-level `message` string (the spec's shape) lost them.
 * Gateways and frameworks in front of a service answer `{error}`, `{error: {message}}`, `{errors: [...]}`,
 * `{message: {...}}` or plain text; the user saw "Cloud4Wi answered HTTP 409" and a hint saying "The message names it".
 */
describe('the shape of a refusal', () => {
	let si: StandIn;
	afterEach(async () => await si.close());

	const getContact = { resource: 'contact', operation: 'get', contactId: 'c-1' };
	const asCtx = () => si;

	const shapes: Array<[string, Reply, string]> = [
		['{message} (the spec)', { body: { message: 'Contact c-1 is locked' } }, 'Contact c-1 is locked'],
		['{error}', { body: { error: 'invalid_request: size too big' } }, 'invalid_request: size too big'],
		['{error: {message}}', { body: { error: { message: 'Locked record', code: 7 } } }, 'Locked record'],
		[
			'{errors: [{message}, {message}]}',
			{ body: { errors: [{ message: 'name is required' }, { message: 'latitude out of range' }] } },
			'name is required; latitude out of range',
		],
		['{errors: [text]}', { body: { errors: ['name is required'] } }, 'name is required'],
		[
			'{message: {...}} without text',
			{ body: { message: { code: 'E42', detail: 'bad thing' } } },
			'{"code":"E42","detail":"bad thing"}',
		],
		['{status, message}', { body: { status: 'error', message: 'Conflict on venue' } }, 'Conflict on venue'],
		['another shape', { body: { code: 'E9', detail: 'venue busy' } }, '{"code":"E9","detail":"venue busy"}'],
		['a JSON text', { raw: '"Conflict on venue"' }, 'Conflict on venue'],
		['plain text', { raw: 'Conflict on venue', headers: { 'Content-Type': 'text/plain' } }, 'Conflict on venue'],
		['an empty body', { raw: '' }, 'Cloud4Wi answered HTTP 409'],
		['{} (no words)', { body: {} }, 'Cloud4Wi answered HTTP 409'],
		[
			'an HTML page',
			{ raw: '<html><body>Conflict</body></html>', headers: { 'Content-Type': 'text/html' } },
			'Cloud4Wi answered HTTP 409 with an HTML page instead of JSON',
		],
	];

	test.each(shapes)(
		'a 409 whose body is %s: its words are the message, with the status',
		async (_name, reply, words) => {
			si = await standIn((r) => (r.path.startsWith('/v2/customers/') ? { status: 409, ...reply } : undefined));
			const failed = await runAction(asCtx(), getContact);
			expect(failed.error?.message).toBe(words);
			expect(failed.error?.httpCode).toBe('409');
			expect(lastThrownError()).toHaveProperty('httpCode', '409');
			const item = await runAction(asCtx(), getContact, [{}], { continueOnFail: true });
			expect(item.json).toEqual([expect.objectContaining({ error: words, httpCode: '409' })]);
		},
	);

	test('a 503 in plain text, every try: its words with the status', async () => {
		si = await standIn((r) =>
			r.path.startsWith('/v2/customers/')
				? {
						status: 503,
						raw: 'Service Unavailable: maintenance until 02:00 UTC',
						headers: { 'Content-Type': 'text/plain' },
					}
				: undefined,
		);
		const failed = await atScale(1 / 50, () => runAction(asCtx(), getContact));
		expect(failed.error?.message).toBe('Service Unavailable: maintenance until 02:00 UTC');
		expect(failed.error?.httpCode).toBe('503');
	});

	test.each(shapes.filter(([name]) => !/empty|no words|HTML/.test(name)))(
		'a login refused with %s: its words in the error and on the Test button',
		async (_name, reply, words) => {
			si = await standIn((r) => (r.path === '/v1/sts/login/services' ? { status: 401, ...reply } : undefined));
			const expected = `Cloud4Wi login failed (HTTP 401): ${words}. Check the client key and secret in the Cloud4Wi credential.`;
			const failed = await runAction(asCtx(), getContact);
			expect(failed.error?.message).toBe(expected);
			expect((await testCredential(si.store, CREDENTIAL_ID)).message).toBe(expected);
		},
	);
});

/**
 * A refusal's message of 5 MB (a service quoting a large request or a stack dump) became the
 * error's message whole: shown in the editor, stored with the execution twice over (10 MB per failed item), and in every
 * Continue On Fail item. The words are cut at MOST_SAID_CHARS, saying how long they were; a secret at the cut is masked.
 */
describe('a long refusal', () => {
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
});
