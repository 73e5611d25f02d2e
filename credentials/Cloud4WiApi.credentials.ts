import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';
import { sleep, UserError } from 'n8n-workflow';

import { clipped, loginRefusal, NETWORK_REASONS, refusalWords } from '../nodes/Cloud4Wi/shared/answers';
import { authenticated, loginLimited } from '../nodes/Cloud4Wi/shared/n8nLogin';
import { maskSecrets } from '../nodes/Cloud4Wi/shared/secrets';
import { answerLimit, timing, waitBeforeRetry } from '../nodes/Cloud4Wi/shared/timing';

const DEFAULT_BASE_URL = 'https://explore.cloud4wi.com';
const LOGIN_PATH = '/v1/sts/login/services';
/** A login refused for load (429, 5xx) is tried this many times in all: every request of the run waits for it. */
const LOGIN_TRIES = 3;

/** Refusals that say "not now", not "not you": the login is tried again. */
function isBusy(status: number): boolean {
	return status === 429 || status === 502 || status === 503 || status === 504;
}

/** A connection cut before the answer: the login is sent again (a token it may have issued just goes unused). */
const CUT = new Set(['ECONNRESET', 'EPIPE', 'ERR_BAD_RESPONSE']);

/** This machine only: the one place a plain-HTTP base URL sends nothing over a network. */
function isLoopback(hostname: string): boolean {
	return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The base URL without trailing slashes, so paths can be appended. Refused unless it is https:// (or plain http://
 * to this machine): the client secret and the token travel in every request.
 */
export function cloud4WiBaseUrl(credentials: ICredentialDataDecryptedObject): string {
	const raw = (typeof credentials.baseUrl === 'string' ? credentials.baseUrl.trim() : '') || DEFAULT_BASE_URL;
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw new UserError(`Cloud4Wi credential, Base URL: "${raw}" is not a URL. Use ${DEFAULT_BASE_URL}.`);
	}
	// `?` or `#` even when empty: every path appended would land in the query or fragment, not reach its endpoint.
	if (url.username || url.password || /[?#]/.test(raw)) {
		throw new UserError(`Cloud4Wi credential, Base URL: use only scheme, host and path, like ${DEFAULT_BASE_URL}.`);
	}
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
		throw new UserError(
			`Cloud4Wi credential, Base URL: "${raw}" must start with https:// (plain http:// is allowed only to this machine), since the client secret and the token travel with every request.`,
		);
	}
	return `${url.origin}${url.pathname}`.replace(/\/+$/, ''); // what was checked is what is used
}

/** The stored token, if it was issued by the credential's Base URL as it is now: a token never goes to another host. */
export function tokenOf(credentials: ICredentialDataDecryptedObject): string {
	const token = typeof credentials.sessionToken === 'string' ? credentials.sessionToken : '';
	if (!token) return '';
	try {
		return credentials.sessionBaseUrl === cloud4WiBaseUrl(credentials) ? token : '';
	} catch {
		return '';
	}
}

/** A request to the login endpoint, whichever way its address is given. */
function isLogin(options: IHttpRequestOptions): boolean {
	try {
		return new URL(options.url, options.baseURL).pathname.replace(/\/+$/, '').endsWith(LOGIN_PATH);
	} catch {
		return false;
	}
}

type LoginAnswer = { statusCode: number; body: unknown; headers: Record<string, string | undefined> };

/** One login request; a network failure becomes its code (the thrown error holds the request, secret included). */
async function login(
	ctx: IHttpRequestHelper,
	url: string,
	credentials: ICredentialDataDecryptedObject,
	timeoutMs: number,
): Promise<LoginAnswer | { code: string }> {
	const { timer } = answerLimit(timeoutMs);
	try {
		return (await ctx.helpers.httpRequest({
			method: 'POST',
			url,
			body: { clientKey: credentials.clientKey, clientSecret: credentials.clientSecret },
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: Math.max(1, timeoutMs),
			abortSignal: timer,
			disableFollowRedirect: true, // a 307 or 308 would post the secret to wherever it points
		})) as LoginAnswer;
	} catch (error) {
		return { code: timer.aborted ? 'ETIMEDOUT' : ((error as { code?: string }).code ?? '') };
	}
}

export class Cloud4WiApi implements ICredentialType {
	name = 'cloud4WiApi';

	displayName = 'Cloud4Wi API';

	icon: Icon = { light: 'file:cloud4wi.svg', dark: 'file:cloud4wi.dark.svg' };

	documentationUrl = 'https://github.com/cloud4wi/n8n-nodes-cloud4wi#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_BASE_URL,
			description:
				'Address of the Cloud4Wi API. Change it only for a test or regional environment. Must be https:// (plain http:// only to this machine).',
		},
		{
			displayName: 'Client Key',
			name: 'clientKey',
			type: 'string',
			default: '',
			required: true,
			description: 'Created in the Cloud4Wi dashboard under Manage > Developers > APIs',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Shown once when the API key is created in the Cloud4Wi dashboard',
		},
		{
			displayName: 'Default Organization ID',
			name: 'organizationId',
			type: 'string',
			default: '',
			description:
				'Used by every operation whose Organization ID is left empty, so users with one organization never type it',
		},
		{
			// n8n stores the JWT here and logs in again when it is empty or the service refuses it.
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
		{
			// The Base URL that issued the stored token: after the Base URL is changed, the old token is not sent there.
			displayName: 'Session Base URL',
			name: 'sessionBaseUrl',
			type: 'hidden',
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const baseUrl = cloud4WiBaseUrl(credentials);
		const url = `${baseUrl}${LOGIN_PATH}`;
		// All tries and waits together get one login's time: the Test button has no other limit.
		const deadline = Date.now() + timing.loginMs;
		let response: LoginAnswer | { code: string };
		for (let attempt = 0; ; attempt++) {
			response = await login(this, url, credentials, deadline - Date.now());
			const again = 'code' in response ? CUT.has(response.code) : isBusy(response.statusCode);
			if (!again || attempt + 1 >= LOGIN_TRIES) break;
			const wait = waitBeforeRetry('code' in response ? undefined : response.headers?.['retry-after'], attempt + 1);
			if (wait > timing.loginWaitMostMs || Date.now() + wait >= deadline) break;
			await sleep(wait);
		}
		if ('code' in response) {
			const reason = NETWORK_REASONS[response.code] ?? 'network error';
			throw new UserError(`Cloud4Wi login failed: no answer from ${url} (${reason})`);
		}

		const body = (response.body ?? {}) as { token?: unknown };
		// Any 2xx: the vendor documents 201 ("request accepted") for every endpoint.
		if (response.statusCode < 200 || response.statusCode > 299) {
			// A fresh error without the request: the secret travels in its body and must not surface, nor where the
			// service quotes it back.
			const message = refusalWords(response.body) ?? 'no reason given';
			const said = clipped(maskSecrets(message, [credentials.clientSecret]));
			if (response.statusCode === 429) loginLimited(credentials, response.headers?.['retry-after']);
			const hint =
				response.statusCode === 401
					? 'Check the client key and secret in the Cloud4Wi credential.'
					: isBusy(response.statusCode) || response.statusCode >= 500
						? 'Cloud4Wi is busy or down: try again in a few minutes.'
						: 'Check the base URL of the Cloud4Wi credential.';
			throw new UserError(loginRefusal(response.statusCode, said, hint));
		}
		const header = response.headers?.authorization ?? '';
		const token = typeof body.token === 'string' && body.token ? body.token : header.replace(/^Bearer\s+/i, '');
		if (!token) {
			throw new UserError('Cloud4Wi login answered without a token. Check the base URL of the credential.');
		}
		return { sessionToken: token, sessionBaseUrl: baseUrl };
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const options: IHttpRequestOptions = {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${tokenOf(credentials)}` },
		};
		authenticated(requestOptions, options, tokenOf(credentials)); // a login through n8n: the others may go on
		if (isLogin(options)) {
			// The Test button's login goes to the Base URL as checked, like every other request (its own is the raw text).
			options.baseURL = cloud4WiBaseUrl(credentials);
			options.url = LOGIN_PATH;
			// The Test button's login goes through n8n, which gives it 5 minutes: a login gets its 30 s there too. The
			// whole answer a second more: a silent service then fails as timed out (ECONNABORTED), not as cancelled.
			options.timeout = Math.min(options.timeout ?? timing.loginMs, timing.loginMs);
			options.abortSignal = answerLimit(timing.loginMs + 1000, options.abortSignal).signal;
		}
		return options;
	}

	// Logging in proves the key, the secret and the base URL. n8n logs in (preAuthentication) before this request on
	// every Test, so a refused key fails there with the login's own message, and needs no rule here.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: LOGIN_PATH,
			method: 'POST',
			disableFollowRedirect: true, // the secret is in the body: a 307 or 308 would send it on
			body: {
				clientKey: '={{$credentials.clientKey}}',
				clientSecret: '={{$credentials.clientSecret}}',
			},
		},
	};
}
