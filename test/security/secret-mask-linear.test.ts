/**
 * Found by the fifth audit (a hang): every answer is masked at the door (maskSecrets) before it is read. For the escaped forms of each
 * secret it builds a regular expression whose every character is `(?:c|\\+(?:letter|uXXXX))`. On a run of backslashes
 * `\\+` takes the whole run and gives it back one by one at every start position: O(n^2) in the run's length, done
 * synchronously, once per secret (the client secret, the token). A 40 KB run takes ~1.5 s a secret, 400 KB ~2.5 min, the
 * 64 MB an answer may hold days; all that time n8n's event loop is blocked (no timer, no other workflow, no
 * Timeout can stop it). A JSON string of backslashes (`"\\\\..."`) is valid JSON any service may send in a field.
 * Masking must stay linear: such an answer must be handled as fast as any other of its size (a 16 MB page masks in ~9 ms).
 */
import { CREDENTIAL_ID, runAction } from '../harness/cloud4wi';
import { testCredential } from '../harness/engine';
import { ORG, standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

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
