/** Masking a secret wherever an answer quotes it: as sent, URL-encoded, or JSON-escaped the way serializers differ. */
import { maskSecrets } from '../../nodes/Cloud4Wi/shared/secrets';

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
