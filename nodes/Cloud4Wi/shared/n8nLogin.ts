import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

/**
 * Adapts n8n's login for expirable credentials to many requests in flight. It relies on two things n8n 1.x and 2.x do,
 * which test/transport/sign-in.test.ts and e2e/actions.e2e.ts ("the n8n adapter") check on both lines:
 * 1. `httpRequestWithAuthentication`, given `credentialsDecrypted` whose token is empty, logs in (the credential's
 *    `preAuthentication`), stores the token in the credential for every other execution and worker, then sends;
 * 2. it sends through the credential's `authenticate`, called with the new token and the request options it was given.
 * Through (2) the requests waiting for the token go on as soon as it is known, and the request gets back its own time
 * limit, which n8n replaces with the execution's cancel signal. Were (2) to change, they would wait for the request.
 * A login refused for the rate limit reaches the run the same way, from the credential through this module: n8n's error
 * does not carry the Retry-After, which the run waits out (the Test button fails at once).
 */

type Context = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

interface Pending {
	signal: AbortSignal;
	onToken: (token: string) => void;
}

const pending = new WeakMap<object, Pending>();
/** Per account, the Retry-After of a login refused for the rate limit: a run waits it out, the Test button does not. */
const limitedLogins = new Map<string, string>();
const accountOf = (credentials: ICredentialDataDecryptedObject) =>
	`${String(credentials.baseUrl ?? '')}\n${String(credentials.clientKey ?? '')}`;

/** Logs in through n8n and sends `options` with the new token; `onToken` hears of the token before the answer. */
export async function sendLoggingIn(
	ctx: Context,
	credentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
	onToken: (token: string) => void,
): Promise<unknown> {
	pending.set(options, { signal: options.abortSignal as AbortSignal, onToken });
	limitedLogins.delete(accountOf(credentials));
	const details = ctx.getNode().credentials?.cloud4WiApi;
	return await ctx.helpers.httpRequestWithAuthentication.call(ctx, 'cloud4WiApi', options, {
		credentialsDecrypted: {
			id: details?.id ?? '',
			name: details?.name ?? '',
			type: 'cloud4WiApi',
			data: { ...credentials, sessionToken: '' },
		},
	});
}

/** Called by the credential's `authenticate`: the login's token is known, and the request gets its time limit back. */
export function authenticated(given: IHttpRequestOptions, sent: IHttpRequestOptions, token: string): void {
	const waiting = pending.get(given);
	if (!waiting) return;
	pending.delete(given);
	sent.abortSignal = waiting.signal;
	waiting.onToken(token);
}

/** Called by the credential when its login fails on a 429: Cloud4Wi refused it for the rate limit. */
export function loginLimited(credentials: ICredentialDataDecryptedObject, retryAfter: unknown): void {
	limitedLogins.set(accountOf(credentials), typeof retryAfter === 'string' ? retryAfter : '');
}

/** The Retry-After of the login `sendLoggingIn` sent, if it failed on a 429. */
export function loginRetryAfter(credentials: ICredentialDataDecryptedObject): string | undefined {
	const retryAfter = limitedLogins.get(accountOf(credentials));
	limitedLogins.delete(accountOf(credentials));
	return retryAfter;
}
