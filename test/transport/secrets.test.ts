/**
 * The client secret and the token never reach an error, an item or the execution's data, in whatever form Cloud4Wi
 * quotes them back: as sent, URL- or form-encoded, JSON-escaped (once or twice), in a 207's body, or a token the run
 * sent before renewing it. Masking stays linear in the answer's size.
 */
import { maskSecrets } from '../../nodes/Cloud4Wi/shared/secrets';
import type { TestContext } from '../harness/cloud4wi';
import { CREDENTIAL_ID, runAction, startCloud4Wi } from '../harness/cloud4wi';
import { errorText, lastThrownError, testCredential } from '../harness/engine';
import { ORG, standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

/** Masking a secret wherever an answer quotes it: as sent, URL-encoded, or JSON-escaped the way serializers differ. */
describe('masking, value by value', () => {
	const SECRET = 'Ab+c/d"e\\f<g>é';
	/** How an echo of the secret looks in a raw JSON answer, by serializer. */
	const json = JSON.stringify(SECRET).slice(1, -1); // Ab+c/d\"e\\f<g>é
	const php = json.replace(/\//g, '\\/'); // json_encode escapes slashes
	const dotnet = json.replace(/[+<>]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`);
	const asciiOnly = json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

	test.each([
		['as sent', SECRET],
		['JSON-escaped', json],
		['JSON-escaped with \\/', php],
		['JSON-escaped with \\u002B for + < > (upper-case hex)', dotnet],
		['JSON-escaped with non-ASCII as \\u00e9 (lower-case hex)', asciiOnly],
		['URL-encoded', encodeURIComponent(SECRET)],
		['URL-encoded, lower-case hex', encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())],
		['JSON-escaped twice (a JSON body quoted in a JSON string)', JSON.stringify(json).slice(1, -1)],
	])('%s: masked', (_name, quoted) => {
		const raw = `{"message":"Malformed body {\\"clientSecret\\":\\"${quoted}\\"} from ${quoted}."}`;
		// As the node does: the raw answer is masked, then the message it decodes to (one level of quoting less).
		const masked = maskSecrets(raw, [SECRET]);
		const message = maskSecrets((JSON.parse(masked) as { message: string }).message, [SECRET]);
		expect(message).toMatch(/^Malformed body .*\*\*\*.* from \*\*\*\.$/);
		for (const form of [SECRET, json, php, dotnet, asciiOnly, encodeURIComponent(SECRET)]) {
			expect(message).not.toContain(form);
		}
	});

	test('a plain token written with escaped letters is masked; its neighbours are kept', () => {
		const token = 'eyJhbGciOi.eyJzdWIi.sig-_x';
		const escaped = token.replace(/[Jz]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
		expect(maskSecrets(`{"message":"Bearer ${escaped} refused"}`, [token])).toBe('{"message":"Bearer *** refused"}');
	});

	test('a secret outside the Basic Multilingual Plane, escaped as a surrogate pair', () => {
		const secret = 'key-😀-end';
		const escaped = 'key-\\ud83d\\ude00-end';
		expect(maskSecrets(`"${escaped}" and "${secret}"`, [secret])).toBe('"***" and "***"');
	});

	test('text without a secret is returned as it is; secrets under 4 characters, and non-strings, are not looked for', () => {
		const text = '{"message":"a\\/b \\u0041 ab"}';
		expect(maskSecrets(text, ['zzzz', 'ab', undefined, 42, null])).toBe(text);
	});

	test('several secrets, each in its own form', () => {
		const text = `token abc.def.ghi, secret ${encodeURIComponent('p@ss word')}`;
		expect(maskSecrets(text, ['p@ss word', 'abc.def.ghi', 'abc.def.ghi'])).toBe('token ***, secret ***');
	});

	test('a short secret (4 to 7 characters) is masked too, in every form', () => {
		for (const secret of ['k3y!', 'pa$$wd7']) {
			const text = `{"message":"bad ${secret} / ${encodeURIComponent(secret)}"}`;
			expect(maskSecrets(text, [secret])).toBe('{"message":"bad *** / ***"}');
		}
	});

	test.each([
		[3, 7],
		[4, 15],
		[5, 31],
	])('JSON-escaped %i levels deep (%i backslashes before a quote): masked', (levels, backslashes) => {
		// A 2xx answer is masked only as raw text, before parsing: the depth it quotes is the depth that must be found.
		let quoted = SECRET;
		for (let level = 0; level < levels; level++) quoted = JSON.stringify(quoted).slice(1, -1);
		expect(quoted).toContain(`d${'\\'.repeat(backslashes)}"e`);
		expect(maskSecrets(`{"message":"echo ${quoted} end"}`, [SECRET])).toBe('{"message":"echo *** end"}');
	});
});

/**
 * The client secret and the token never appear in errors, even where Cloud4Wi quotes them back: a login refusal that
 * echoes the request body, an API refusal that echoes the Authorization header, a redirect to an address holding the
 * token. The known secret and tokens are masked before any message is built.
 */
describe('secrets quoted back', () => {
	let ctx: TestContext;
	beforeEach(async () => {
		ctx = await startCloud4Wi();
	});
	afterEach(async () => await ctx.sb.close());

	const listSegments = { resource: 'segment', operation: 'getAll', returnAll: true };
	const getContact = () => ({ resource: 'contact', operation: 'get', contactId: ctx.sb.data.contacts[0]!.cid });
	const storedToken = () => String(ctx.store.stored(CREDENTIAL_ID).sessionToken);

	test('a login refusal that quotes the request body: the secret is masked in the error', async () => {
		const { clientKey, clientSecret } = ctx.sb.credentials;
		ctx.sb.addFault({
			method: 'POST',
			path: '^/v1/sts/login/',
			status: 400,
			body: { message: `Malformed credentials {"clientKey":"${clientKey}","clientSecret":"${clientSecret}"}` },
		});
		const result = await runAction(ctx, listSegments);
		expect(result.error?.message).toBe(
			`Cloud4Wi login failed (HTTP 400): Malformed credentials {"clientKey":"${clientKey}","clientSecret":"***"}. Check the base URL of the Cloud4Wi credential.`,
		);
		expect(errorText(lastThrownError())).not.toContain(clientSecret);
		expect(JSON.stringify(result.run)).not.toContain(clientSecret);
	});

	test("the Test button: the same login refusal shows Cloud4Wi's message with the secret masked", async () => {
		const { clientSecret } = ctx.sb.credentials;
		ctx.sb.addFault({
			method: 'POST',
			path: '^/v1/sts/login/',
			status: 400,
			times: 2,
			body: { message: `Malformed credentials {"clientSecret":"${clientSecret}"}` },
		});
		const result = await testCredential(ctx.store, CREDENTIAL_ID);
		expect(result.status).toBe('Error');
		expect(result.message).toContain('Malformed credentials {"clientSecret":"***"}');
		expect(result.message).not.toContain(clientSecret);
	});

	test('an API refusal that quotes the Authorization header: the token is masked, in the error and with Continue On Fail', async () => {
		await runAction(ctx, listSegments); // logs in: a token stored
		const token = storedToken();
		ctx.sb.addFault({
			method: 'GET',
			path: '^/v2/customers/',
			status: 409,
			times: 2,
			body: { message: `Invalid parameter contactId for request with Authorization: Bearer ${token}` },
		});
		const failed = await runAction(ctx, getContact());
		expect(failed.error?.message).toBe('Invalid parameter contactId for request with Authorization: Bearer ***');
		expect(errorText(lastThrownError())).not.toContain(token);
		const item = await runAction(ctx, getContact(), [{}], { continueOnFail: true });
		expect(item.json).toEqual([
			expect.objectContaining({ error: 'Invalid parameter contactId for request with Authorization: Bearer ***' }),
		]);
		expect(JSON.stringify(item.run)).not.toContain(token);
	});

	test('a redirect to an address that holds the token: the address is named with the token masked', async () => {
		await runAction(ctx, listSegments);
		const token = storedToken();
		ctx.sb.addFault({
			method: 'GET',
			path: '^/v2/customers/',
			status: 302,
			location: `https://elsewhere.example/t/${token}`,
		});
		const result = await runAction(ctx, getContact());
		expect(result.error?.message).toBe(
			'Cloud4Wi answered with a redirect (HTTP 302) to https://elsewhere.example/t/***, which was not followed',
		);
		expect(errorText(lastThrownError())).not.toContain(token);
	});
});

/**
 * A client secret with characters that serializers escape (`"`, `/`, `+`, `<`), quoted back by Cloud4Wi in a form other
 * than the one sent: the login body echoed inside the message (quoted JSON in a JSON string), written by a serializer
 * that escapes `/` and `+`, or URL-encoded. No form of the secret reaches the error or the execution's data.
 */
describe('a secret quoted back escaped', () => {
	const SECRET = 'Sx"9/q+<k>\\w-2f';
	let ctx: TestContext;
	beforeEach(async () => {
		ctx = await startCloud4Wi({ clientSecret: SECRET });
	});
	afterEach(async () => await ctx.sb.close());

	/** Every way the secret can be written in a message: as is, JSON-escaped (once, twice), URL-encoded. */
	const forms = () => {
		const once = JSON.stringify(SECRET).slice(1, -1);
		return [SECRET, once, JSON.stringify(once).slice(1, -1), encodeURIComponent(SECRET), 'Sx', '9/q', '<k>'];
	};
	/** JSON as a .NET or PHP service writes it: `/` as `\/`, `+ < >` as `\u002B \u003C \u003E`. */
	const escapedJson = (value: unknown) =>
		JSON.stringify(value)
			.replace(/\//g, '\\/')
			.replace(/[+<>]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`);

	const listSegments = { resource: 'segment', operation: 'getAll', returnAll: true };
	const logins = () => ctx.sb.requests.filter((r) => r.path.startsWith('/v1/sts/login')).length;

	test('a login refusal that quotes the login body inside its message, escaped: the secret is masked', async () => {
		const { clientKey } = ctx.sb.credentials;
		const body = JSON.stringify({ clientKey, clientSecret: SECRET });
		ctx.sb.addFault({
			method: 'POST',
			path: '^/v1/sts/login/',
			status: 400,
			rawBody: escapedJson({ message: `Malformed credentials ${body}` }),
			contentType: 'application/json',
		});
		const result = await runAction(ctx, listSegments);
		expect(result.error?.message).toBe(
			`Cloud4Wi login failed (HTTP 400): Malformed credentials {"clientKey":"${clientKey}","clientSecret":"***"}. Check the base URL of the Cloud4Wi credential.`,
		);
		expect(logins()).toBe(1);
		expect(ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login'))).toHaveLength(0); // nothing sent after
		const seen = errorText(lastThrownError()) + JSON.stringify(result.run);
		for (const form of forms()) expect(seen).not.toContain(form);
	});

	test('a login refusal that quotes the secret URL-encoded: masked, in a run and under the Test button', async () => {
		ctx.sb.addFault({
			method: 'POST',
			path: '^/v1/sts/login/',
			status: 400,
			times: 3,
			body: { message: `Rejected clientSecret=${encodeURIComponent(SECRET)}&grant=client` },
		});
		const result = await runAction(ctx, listSegments);
		expect(result.error?.message).toContain('Rejected clientSecret=***&grant=client');
		const tested = await testCredential(ctx.store, CREDENTIAL_ID);
		expect(tested.status).toBe('Error');
		expect(tested.message).toContain('Rejected clientSecret=***&grant=client');
		const seen = errorText(lastThrownError()) + JSON.stringify(result.run) + tested.message;
		for (const form of forms()) expect(seen).not.toContain(form);
	});

	test('an API refusal that quotes the login body, twice escaped: the secret is masked in the error and the item', async () => {
		await runAction(ctx, listSegments); // logs in with the hostile secret
		const inner = JSON.stringify({ clientSecret: SECRET });
		ctx.sb.addFault({
			method: 'GET',
			path: '^/v2/customers/',
			status: 409,
			times: 2,
			rawBody: escapedJson({ message: `Conflict with session opened by ${JSON.stringify(inner)}` }),
			contentType: 'application/json',
		});
		const getContact = { resource: 'contact', operation: 'get', contactId: ctx.sb.data.contacts[0]!.cid };
		const failed = await runAction(ctx, getContact);
		expect(failed.error?.message).toMatch(/^Conflict with session opened by .*\*\*\*/);
		const thrown = errorText(lastThrownError());
		const item = await runAction(ctx, getContact, [{}], { continueOnFail: true });
		expect(item.json).toEqual([expect.objectContaining({ error: expect.stringContaining('***') })]);
		const seen = thrown + JSON.stringify(failed.run) + JSON.stringify(item.run);
		for (const form of forms()) expect(seen).not.toContain(form);
	});
});

/**
 * A client secret quoted back form-encoded (application/x-www-form-urlencoded, as URLSearchParams, Java's
 * URLEncoder or PHP's urlencode write it: a space as `+`, `! ' ( ) ~` as `%21 %27 %28 %29 %7E`) is the secret too. Only
 * encodeURIComponent's form was masked before.
 */
describe('a secret quoted back form-encoded', () => {
	const formEncoded = (secret: string) =>
		new URLSearchParams({ clientSecret: secret }).toString().slice('clientSecret='.length);

	let ctx: TestContext;
	afterEach(async () => await ctx?.sb.close());

	test.each(['Sx 9q2f k7Lm', "Sx9!q(k)~'2f"])(
		'secret %j quoted form-encoded in a login refusal: masked in the run and under the Test button',
		async (secret) => {
			ctx = await startCloud4Wi({ clientSecret: secret });
			const quoted = formEncoded(secret);
			expect(quoted).not.toBe(secret);
			expect(quoted).not.toBe(encodeURIComponent(secret));
			ctx.sb.addFault({
				method: 'POST',
				path: '^/v1/sts/login/',
				status: 400,
				times: 3,
				body: { message: `Rejected clientKey=demo&clientSecret=${quoted}&grant=client` },
			});
			const result = await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true });
			expect(result.error?.message).toContain('Rejected clientKey=demo&clientSecret=***&grant=client');
			const thrown = errorText(lastThrownError());
			const tested = await testCredential(ctx.store, CREDENTIAL_ID);
			expect(tested.status).toBe('Error');
			const seen = thrown + JSON.stringify(result.run) + tested.message;
			expect(seen).not.toContain(quoted);
		},
	);

	test('an API answer quoting the login body form-encoded: the secret is masked in the error', async () => {
		const secret = 'Sx 9q2f k7Lm';
		ctx = await startCloud4Wi({ clientSecret: secret });
		await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in
		const quoted = formEncoded(secret);
		ctx.sb.addFault({
			method: 'GET',
			path: '^/v2/customers/',
			status: 409,
			times: 2,
			body: { message: `Conflict with session opened by clientSecret=${quoted}` },
		});
		const result = await runAction(ctx, {
			resource: 'contact',
			operation: 'get',
			contactId: ctx.sb.data.contacts[0]!.cid,
		});
		expect(result.error?.message).toBe('Conflict with session opened by clientSecret=***');
		expect(errorText(lastThrownError()) + JSON.stringify(result.run)).not.toContain(quoted);
	});
});

/**
 * A token the run sent, quoted back by Cloud4Wi after the run renewed its token (another item's 403 made it log
 * in meanwhile), must be masked like the current one: the old token may still be valid for a day.
 */
describe('a token the run renewed since', () => {
	let ctx: TestContext;
	beforeEach(async () => {
		ctx = await startCloud4Wi();
	});
	afterEach(async () => await ctx.sb.close());

	/**
	 * Two Contact Get items sent with the stored token T1: the first is refused with 403 (the vendor's word for an expired
	 * token too), so the node logs in again (T2); the second answers after that renewal and quotes the header it got (T1).
	 */
	async function renewalBesideAQuote(options: { continueOnFail?: boolean } = {}) {
		await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in: T1 stored
		const oldToken = String(ctx.store.stored(CREDENTIAL_ID).sessionToken);
		expect(oldToken.length).toBeGreaterThan(20);
		const [a, b] = [ctx.sb.data.contacts[0]!.cid, ctx.sb.data.contacts[1]!.cid];
		ctx.sb.addFault({ method: 'GET', path: `^/v2/customers/${a}$`, status: 403, body: { message: 'Forbidden' } });
		ctx.sb.addFault({
			method: 'GET',
			path: `^/v2/customers/${b}$`,
			status: 409,
			delayMs: 600,
			times: 2,
			body: { message: `Invalid parameter contactId for request with Authorization: Bearer ${oldToken}` },
		});
		const items = [{ cid: a }, { cid: b }];
		const result = await runAction(
			ctx,
			{ resource: 'contact', operation: 'get', contactId: '={{ $json.cid }}' },
			items,
			options,
		);
		// The renewal did happen: a new token is stored, and the old one is still valid at Cloud4Wi.
		expect(String(ctx.store.stored(CREDENTIAL_ID).sessionToken)).not.toBe(oldToken);
		return { oldToken, result };
	}

	test('an answer quoting the token it was sent with, read after another item renewed the token: that token is masked', async () => {
		const { oldToken, result } = await renewalBesideAQuote({ continueOnFail: true });
		expect(result.json[1]).toEqual(
			expect.objectContaining({ error: 'Invalid parameter contactId for request with Authorization: Bearer ***' }),
		);
		expect(JSON.stringify(result.run)).not.toContain(oldToken);
	});

	test('the same without Continue On Fail: the error the run stops with does not hold the old token', async () => {
		const { oldToken, result } = await renewalBesideAQuote();
		expect(result.error?.message).toBe('Invalid parameter contactId for request with Authorization: Bearer ***');
		expect(errorText(lastThrownError())).not.toContain(oldToken);
		expect(JSON.stringify(result.run)).not.toContain(oldToken);
	});
});

/**
 * Opt-ins update with "Error If Some Not Updated": a 207 body is handed whole to NodeApiError as its error response.
 * n8n-workflow copies the body's `message` into the error's `messages` (shown in the editor's error panel, saved with
 * the execution) and keeps the body; nothing is masked there, unlike every other refusal (`serviceError`).
 */
describe('a 207 quoting the token', () => {
	let ctx: TestContext;
	afterEach(async () => await ctx.sb.close());

	test('a 207 that quotes the Authorization header: the token is in no part of the error', async () => {
		ctx = await startCloud4Wi();
		await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true }); // logs in: a token stored
		const token = String(ctx.store.stored(CREDENTIAL_ID).sessionToken);
		expect(token.length).toBeGreaterThan(4);
		ctx.sb.addFault({
			method: 'PUT',
			path: '/policies$',
			status: 207,
			body: { mktgCommunications: false, message: `Partial update for request with Authorization: Bearer ${token}` },
		});
		const result = await runAction(ctx, {
			resource: 'contact',
			operation: 'updateOptIns',
			contactId: ctx.sb.data.contacts[0]!.cid,
			optIns: { optIn: [{ policy: 'mktgCommunications', accepted: true }] },
			options: { failOnPartial: true },
		});
		expect(result.error).toBeDefined();
		expect(errorText(lastThrownError())).not.toContain(token);
		expect(JSON.stringify(result.run)).not.toContain(token);
	});
});

/**
 * Every answer is masked at the door (maskSecrets) before it is read. For the escaped forms of each
 * secret it builds a regular expression whose every character is `(?:c|\\+(?:letter|uXXXX))`. On a run of backslashes
 * `\\+` takes the whole run and gives it back one by one at every start position: O(n^2) in the run's length, done
 * synchronously, once per secret (the client secret, the token). A 40 KB run takes ~1.5 s a secret, 400 KB ~2.5 min, the
 * 64 MB an answer may hold days; all that time n8n's event loop is blocked (no timer, no other workflow, no
 * Timeout can stop it). A JSON string of backslashes (`"\\\\..."`) is valid JSON any service may send in a field.
 * Masking must stay linear: such an answer must be handled as fast as any other of its size (a 16 MB page masks in ~9 ms).
 */
describe('masking time', () => {
	/** Kept small: on the quadratic code each test took a few seconds (the time grew with the square of the run). */
	const RUN = 30_000;
	const LOGIN_RUN = 60_000;
	/** A field of RUN backslashes (JSON-escaped: 2 RUN characters in the answer), then a \u escape: valid JSON. */
	const note = `${'\\'.repeat(RUN - 1)}A`;

	let si: StandIn;
	afterEach(async () => await si.close());

	test('an answer holding a long run of backslashes (valid JSON) is read in well under a second', async () => {
		si = await standIn((r) => {
			if (r.path !== `/v2/segments/organizations/${ORG}`) return undefined;
			// JSON.stringify writes each backslash as "\\"; the "\u0041" gives the `\u` that triggers the escaped-form scan.
			return { raw: JSON.stringify({ segments: [{ id: 's1', name: 'S', note }] }).replace('A"', '\\u0041"') };
		});
		const started = Date.now();
		const result = await runAction(si, {
			resource: 'segment',
			operation: 'getAll',
			returnAll: true,
		});
		const elapsed = Date.now() - started;
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(1);
		// The quadratic code took ~6 s for this 60 KB answer (the client secret's and the token's patterns), the event loop blocked throughout.
		expect(elapsed).toBeLessThan(1_000);
	}, 120_000);

	test('a login refusal whose message holds a long run of backslashes: the Test button answers at once', async () => {
		si = await standIn((r) => {
			if (r.path !== '/v1/sts/login/services') return undefined;
			return { status: 400, raw: JSON.stringify({ message: `bad request ${'\\'.repeat(LOGIN_RUN)}u0041` }) };
		});
		const started = Date.now();
		const outcome = await testCredential(si.store, CREDENTIAL_ID);
		const elapsed = Date.now() - started;
		expect(outcome.status).toBe('Error');
		// The quadratic code took ~3.5 s for 60 KB (the client secret's pattern alone, in preAuthentication), minutes for a few hundred KB.
		expect(elapsed).toBeLessThan(1_000);
	}, 120_000);
});
