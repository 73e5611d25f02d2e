import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { cloud4WiBaseUrl, LOGIN_TIMEOUT_MS, retryAfterOf, tokenOf } from '../../../credentials/Cloud4WiApi.credentials';
import type { Learned, Outcome } from './limiter';
import { Limiter } from './limiter';
import { maskSecrets } from './secrets';

export { apiPath } from './path';

export type Cloud4WiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path with every id checked and encoded (see `apiPath`). */
	path: string;
	query?: IDataObject;
	body?: IDataObject | IDataObject[];
	itemIndex?: number;
	/** What a 404 means to the user, e.g. `contact "c-12"`. */
	notFound?: string;
	/** Scopes the operation needs, named in the 403 hint. */
	scopes?: string;
}

export interface ApiResponse {
	status: number;
	body: IDataObject;
}

/** Retries after a 5xx, a network failure or a timeout (reads only). */
export const RETRIES = 4;
/** Retries after a 429 (any request: it was refused before any work). Each waits for the Retry-After. */
export const RATE_LIMIT_RETRIES = 8;
/** Default of the Timeout option: a page of 10,000 records arrives well within it, and 5 tries of a hung read end within 3 minutes. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * Default (and most) of the Max Concurrent Requests option: the limiter finds the service's level, so the default only
 * has to stay out of the way (64 kept 1,000 writes to a service 300 ms away at 3x the HTTP Request node's time).
 */
export const DEFAULT_MAX_IN_FLIGHT = 1000;
/** Largest answer read: a page of 10,000 contacts is about 17 MB of JSON; an answer without end must not fill memory. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
const BACKOFF_BASE_MS = 500;
/**
 * Longest one request waits in all for the retries Cloud4Wi asks for (Retry-After, back-off); a wait that would pass
 * it is not made, and the request fails. Also the longest pause one 429 sets for the others.
 */
export const MAX_RETRY_WAIT_MS = 60_000;
/** Both mean "token refused": the vendor documents 403 for an expired token, 401 is the usual word for it. */
const TOKEN_REFUSED = new Set([401, 403]);

/** Settings of one node run. */
export interface RunSettings {
	maxInFlight: number;
	timeoutMs: number;
	/** Epoch ms after which no request starts or goes on (a poll's budget). */
	deadline?: number;
	/** Items whose requests must not leave any more (a node run stopping at a failed item). */
	dropped?: (itemIndex: number) => boolean;
}

/** A token a renewal gave, and whether it came from a login (then, until it works, a refusal is about rights). */
interface Renewed {
	token: string;
	fromLogin: boolean;
}

/** One Cloud4Wi account in this process: its limiter, the login under way if any, and the newest token it gave. */
interface Account {
	limiter: Limiter;
	renewing?: Promise<Renewed>;
	token?: string;
	/** `token` came from a login and no request has worked with it yet. */
	fresh?: boolean;
}

/** One node run (an execution of the node, a poll, a dropdown load): the credential is read once for all its requests. */
interface Run {
	settings: RunSettings;
	credentials: ICredentialDataDecryptedObject;
	baseUrl: string;
	account: Account;
	token: string;
	/** The token came from a login and has not worked yet: a refusal of it is about permissions. */
	fresh: boolean;
	/**
	 * Tokens this run saw refused, or revoked: never sent again in it, whether remembered by this process or stored (a
	 * worker's older token and the one another worker stored can both have expired).
	 */
	dead: Set<string>;
	/** Every token this run sent or revoked: an answer read after a renewal may quote the one its request carried. */
	sent: Set<string>;
	loginFailure?: string;
}

const accounts = new Map<string, Account>();
const runs = new WeakMap<object, Promise<Run>>();

const DEFAULTS: RunSettings = { maxInFlight: DEFAULT_MAX_IN_FLIGHT, timeoutMs: DEFAULT_TIMEOUT_MS };

/** Where a workflow keeps what the limiter learned, per credential: the account's limit outlives this process. */
const LIMITS_KEY = 'cloud4WiLimits';
type StoredLimit = Learned & { baseUrl: string };

/** The workflow's stored limits (static data: n8n saves it after every execution but manual ones). */
function storedLimits(ctx: Cloud4WiContext): Record<string, StoredLimit | undefined> | undefined {
	try {
		const stored = ctx.getWorkflowStaticData('global')[LIMITS_KEY];
		return stored && typeof stored === 'object' ? (stored as Record<string, StoredLimit | undefined>) : undefined;
	} catch {
		return undefined; // a context without workflow data
	}
}

async function openRun(ctx: Cloud4WiContext, settings: RunSettings): Promise<Run> {
	const credentials = await ctx.getCredentials('cloud4WiApi');
	const baseUrl = cloud4WiBaseUrl(credentials);
	const credentialId = ctx.getNode().credentials?.cloud4WiApi?.id ?? '';
	const key = `${credentialId}\n${baseUrl}\n${String(credentials.clientKey ?? '')}`;
	let account = accounts.get(key);
	if (!account) {
		accounts.set(key, (account = { limiter: new Limiter() }));
		// A new process (a queue worker, `n8n execute`, a restart) starts at the limit an earlier one found: no 429 to find it.
		const stored = credentialId ? storedLimits(ctx)?.[credentialId] : undefined;
		if (stored?.baseUrl === baseUrl) account.limiter.learn(stored);
	}
	// An earlier run's login that never saw work says nothing now (the token may have expired since): renew it once.
	if (!account.renewing) account.fresh = false;
	account.limiter.startRun();
	return {
		settings,
		credentials,
		baseUrl,
		account,
		token: tokenOf(credentials),
		fresh: false,
		dead: new Set(),
		sent: new Set(),
	};
}

/** Starts a node run with its settings (runs not started so use the defaults); the credential is read on first use. */
export function startRun(ctx: Cloud4WiContext, settings: Partial<RunSettings>): Promise<Run> {
	const run = openRun(ctx, { ...DEFAULTS, ...settings });
	run.catch(() => {}); // a failed read is reported by the request that awaits it
	runs.set(ctx, run);
	return run;
}

/** Keeps what the account's limiter learned in the workflow, for the next process that runs it (written only on change). */
export async function rememberLimits(ctx: IExecuteFunctions): Promise<void> {
	const run = await runOf(ctx).catch(() => undefined);
	const learned = run?.account.limiter.learned();
	const credentialId = ctx.getNode().credentials?.cloud4WiApi?.id;
	if (!run || !learned || !credentialId) return;
	const entry: StoredLimit = { baseUrl: run.baseUrl, ...learned };
	const stored = storedLimits(ctx)?.[credentialId];
	if (stored && (Object.keys(entry) as Array<keyof StoredLimit>).every((k) => stored[k] === entry[k])) return;
	try {
		ctx.getWorkflowStaticData('global')[LIMITS_KEY] = { ...storedLimits(ctx), [credentialId]: entry };
	} catch {
		// a context without workflow data: the limit stays known to this process only, and the run's outcome stands
	}
}

/** What a node run follows of its account's limiter: how many requests are worth having ready, and its pauses. */
export interface LimiterWatch {
	readyWanted(): number;
	/** Stops calling the pause listener. */
	stop(): void;
}

/** Follows the account's limiter for this run; `onPause` gets the end of every pause a 429 sets. */
export async function watchLimiter(ctx: Cloud4WiContext, onPause: (until: number) => void): Promise<LimiterWatch> {
	const run = await runOf(ctx).catch(() => undefined); // a credential that cannot be read fails each item instead
	if (!run) return { readyWanted: () => Number.POSITIVE_INFINITY, stop: () => {} };
	const { limiter } = run.account;
	return { readyWanted: () => limiter.readyWanted(), stop: limiter.onPause(onPause) };
}

function runOf(ctx: Cloud4WiContext): Promise<Run> {
	return runs.get(ctx) ?? startRun(ctx, {});
}

/** The credential as read at the start of this run (no read or decryption per item). */
export async function credentialsOf(ctx: Cloud4WiContext): Promise<ICredentialDataDecryptedObject> {
	return (await runOf(ctx)).credentials;
}

/** After a logout: the token is dead, the next request logs in. */
export async function forgetToken(ctx: Cloud4WiContext): Promise<void> {
	const run = await runOf(ctx);
	run.dead.add(run.token);
	run.sent.add(run.token);
	if (run.account.token === run.token) run.account.token = undefined;
	run.token = '';
}

function dropEmpty(query: IDataObject | undefined): IDataObject | undefined {
	if (!query) return undefined;
	const kept = Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '');
	return kept.length ? Object.fromEntries(kept) : undefined;
}

/**
 * The wait Cloud4Wi asks for, else a back-off that doubles per attempt. Asked again, never less than the back-off of the
 * attempt before: a Retry-After of 0 (or in the past) must not turn into tries back to back.
 */
function retryAfterMs(value: string | undefined, attempt: number): number {
	const asked = retryAfterOf(value);
	if (asked === undefined) return BACKOFF_BASE_MS * 2 ** attempt;
	return attempt === 0 ? asked : Math.max(asked, BACKOFF_BASE_MS * 2 ** (attempt - 1));
}

const HINTS: Record<number, (req: ApiRequest) => string> = {
	400: () => 'Cloud4Wi refused a parameter of this request. Check the fields of this operation.',
	401: () => 'Cloud4Wi refused the credential. Check the client key and secret.',
	403: (req) =>
		`Cloud4Wi refused access even with a fresh token: the API key lacks the role or scopes for this operation${
			req.scopes ? ` (needs ${req.scopes})` : ''
		}. Check the key under Manage > Developers > APIs.`,
	404: (req) => `Cloud4Wi has no ${req.notFound ?? 'such resource'}. Check the ID.`,
	409: () => 'Cloud4Wi refused a parameter of this request (conflict or invalid value). The message names it.',
	410: () => 'Cloud4Wi has revoked or removed this endpoint.',
	429: () =>
		`Cloud4Wi kept refusing for its rate limit. A request is tried again ${RATE_LIMIT_RETRIES} times at most, waiting as Cloud4Wi's Retry-After asks, up to ${MAX_RETRY_WAIT_MS / 1000} s in all. Try again later, or lower Max Concurrent Requests.`,
};

function apiError(
	ctx: Cloud4WiContext,
	message: string,
	req: ApiRequest,
	extra: { description?: string; httpCode?: string },
) {
	return new NodeApiError(
		ctx.getNode(),
		{ message, ...(extra.httpCode ? { httpCode: extra.httpCode } : {}) } as JsonObject,
		{
			message,
			description: extra.description,
			httpCode: extra.httpCode,
			itemIndex: req.itemIndex,
		},
	);
}

/** `text` with the run's client secret and tokens masked: a service may quote what it was sent in its message. */
function withoutSecrets(text: string, run: Run): string {
	return maskSecrets(text, [run.credentials.clientSecret, run.token, run.account.token, ...run.sent]);
}

/** The one place a failed answer becomes an n8n error: the service's message (secrets masked), its status, a hint. */
function serviceError(ctx: Cloud4WiContext, status: number, body: unknown, req: ApiRequest, run: Run): NodeApiError {
	const said =
		body && typeof body === 'object' && typeof (body as IDataObject).message === 'string'
			? withoutSecrets((body as IDataObject).message as string, run)
			: `Cloud4Wi answered HTTP ${status}`;
	const hint = HINTS[status]?.(req) ?? (status >= 500 ? 'Cloud4Wi had an internal error. Try again later.' : undefined);
	return apiError(ctx, said, req, { description: hint, httpCode: String(status) });
}

/** A redirect is not followed: where it points is named (address only), so the user can fix the Base URL. */
function redirectError(ctx: Cloud4WiContext, status: number, location: unknown, req: ApiRequest, run: Run) {
	let target = 'no address';
	if (typeof location === 'string' && location) {
		try {
			const url = new URL(location, `${run.baseUrl}/`);
			target = withoutSecrets(`${url.origin}${url.pathname}`, run);
		} catch {
			target = 'an address that is not a URL';
		}
	}
	return apiError(ctx, `Cloud4Wi answered with a redirect (HTTP ${status}) to ${target}, which was not followed`, req, {
		httpCode: String(status),
		description:
			"The token is sent only to the credential's Base URL. Check it: it should be the address of the Cloud4Wi API itself.",
	});
}

/** Errors that mean "no answer in time", so a poll can hand over what it read before. */
const timeouts = new WeakSet<Error>();
export function isTimeout(error: unknown): boolean {
	return error instanceof Error && timeouts.has(error);
}

/** What came back, or why nothing usable did. */
type Answer =
	| { status: number; headers: Record<string, unknown>; text: string }
	| { status: 0; failure: 'timeout' | 'network' | 'tooLarge'; reason: string };

const NETWORK_REASONS: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset before the answer was complete',
	EPIPE: 'connection broken',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host not found',
	ETIMEDOUT: 'connection timed out',
	ERR_BAD_RESPONSE: 'the answer was cut short',
};

/** Reads a thrown request error without keeping it (it holds the request, headers included). */
function noAnswer(error: unknown, timedOut: boolean): Answer {
	const e = (error ?? {}) as { code?: string; message?: string; cause?: { code?: string; message?: string } };
	const code = e.code ?? e.cause?.code ?? '';
	const message = `${e.message ?? ''} ${e.cause?.message ?? ''}`;
	if (timedOut || code === 'ECONNABORTED' || /timeout of \d+ms exceeded/.test(message)) {
		return { status: 0, failure: 'timeout', reason: 'timeout' };
	}
	const reason =
		NETWORK_REASONS[code] ?? (/aborted/i.test(message) ? 'the answer was cut short' : code || 'network error');
	return { status: 0, failure: 'network', reason };
}

function requestOptions(run: Run, req: ApiRequest, timeoutMs: number, signal: AbortSignal): IHttpRequestOptions {
	return {
		method: req.method,
		url: `${run.baseUrl}${req.path}`,
		qs: dropEmpty(req.query),
		body: req.body,
		json: true,
		// Read here as it streams in, then parsed: a proxy's HTML page or a cut-short body must fail, not pass as an empty
		// answer, and an answer without end must not fill memory.
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: timeoutMs,
		// For the whole answer: n8n's `timeout` only limits the wait for each next byte, and a trickled body never ends.
		abortSignal: signal,
		// n8n would follow a redirect with the Authorization header, to any host: the token goes to the Base URL only.
		disableFollowRedirect: true,
	};
}

/** The execution's cancel signal, where n8n gives one (node runs; not polls or dropdowns). */
function cancelOf(ctx: Cloud4WiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
}

/** A time limit for the whole answer, and the execution's cancel signal. */
function limitOf(ctx: Cloud4WiContext, timeoutMs: number) {
	const timer = AbortSignal.timeout(timeoutMs);
	const cancel = cancelOf(ctx);
	return { timer, cancel, signal: cancel ? AbortSignal.any([timer, cancel]) : timer };
}

function cancelledError(ctx: Cloud4WiContext, req: ApiRequest): NodeApiError {
	return new NodeApiError(ctx.getNode(), { message: 'The execution was cancelled' } as JsonObject, {
		message: 'The execution was cancelled',
		itemIndex: req.itemIndex,
	});
}

/** The cheap path: the run's token, n8n's plain request helper, a time limit for the whole answer. */
async function send(
	ctx: Cloud4WiContext,
	run: Run,
	req: ApiRequest,
	token: string,
	timeoutMs: number,
): Promise<Answer> {
	const { timer, cancel, signal } = limitOf(ctx, timeoutMs);
	const options = requestOptions(run, req, timeoutMs, signal);
	options.headers = { Authorization: `Bearer ${token}` };
	try {
		const response = (await ctx.helpers.httpRequest(options)) as {
			statusCode: number;
			headers: Record<string, unknown>;
			body: unknown;
		};
		return await answerOf(response); // awaited here: a body cut short or timed out fails inside this try
	} catch (error) {
		if (cancel?.aborted) throw cancelledError(ctx, req);
		return noAnswer(error, timer.aborted);
	}
}

/** An answer's status, headers and body text, the body read as it streams in up to MAX_ANSWER_BYTES. */
async function answerOf(response: { statusCode: number; headers: Record<string, unknown>; body: unknown }) {
	const headers = response.headers ?? {};
	const { body } = response;
	if (!isStream(body)) return { status: response.statusCode, headers, text: textOf(body) };
	const text = await readUpTo(body, MAX_ANSWER_BYTES);
	if (text === undefined) {
		const reason = `the answer was larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MB`;
		return { status: 0, failure: 'tooLarge', reason } as const;
	}
	return { status: response.statusCode, headers, text };
}

interface BodyStream {
	on(event: string, listener: (arg: unknown) => void): unknown;
	destroy(): unknown;
}

function isStream(body: unknown): body is BodyStream {
	return !!body && typeof (body as BodyStream).on === 'function' && typeof (body as BodyStream).destroy === 'function';
}

/** The body as text, or undefined past `limit` bytes (the rest is not read). Events: `for await` cost ~7 % of a bulk run. */
function readUpTo(body: BodyStream, limit: number): Promise<string | undefined> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let settled = false;
		body.on('data', (chunk) => {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
			size += buffer.length;
			if (size > limit) {
				settled = true;
				body.destroy();
				resolve(undefined);
			} else chunks.push(buffer);
		});
		body.on('end', () => {
			settled = true;
			resolve(Buffer.concat(chunks, size).toString('utf8'));
		});
		// The headers came, the body stopped (a time limit is told apart by its signal, by the caller). 'close' follows
		// every 'end' too: no error is built then (its stack cost ~15 µs an answer).
		const cutShort = () => {
			if (!settled) reject(Object.assign(new Error('The answer was cut short'), { code: 'ERR_BAD_RESPONSE' }));
		};
		body.on('error', cutShort);
		body.on('close', cutShort);
	});
}

function textOf(body: unknown): string {
	if (typeof body === 'string') return body;
	if (body === undefined || body === null) return '';
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	return JSON.stringify(body); // an n8n that parsed it anyway
}

/** What a wait for other work gives when its time ran out first. */
const OUT_OF_TIME = Symbol('out of time');

/** `work`, or OUT_OF_TIME once `signal` aborts first (the work goes on unwatched). */
function within<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof OUT_OF_TIME> {
	work.catch(() => {}); // a failure after the wait ended is nobody's
	if (signal.aborted) return Promise.resolve(OUT_OF_TIME);
	return new Promise((resolve, reject) => {
		const stop = () => resolve(OUT_OF_TIME);
		signal.addEventListener('abort', stop, { once: true });
		work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
	});
}

/** A login and its request get the request's Timeout plus a login's time, within a poll's deadline. */
function loginLimitOf(ctx: Cloud4WiContext, run: Run, timeoutMs: number) {
	const left = run.settings.deadline === undefined ? Number.POSITIVE_INFINITY : run.settings.deadline - Date.now();
	return {
		...limitOf(ctx, Math.max(1, Math.min(timeoutMs + LOGIN_TIMEOUT_MS, left))),
		ranOut: left < timeoutMs + LOGIN_TIMEOUT_MS,
	};
}

/** No token in time: the run's deadline passed (a timeout a poll hands over at), or the login itself took too long. */
function loginOutOfTime(ctx: Cloud4WiContext, req: ApiRequest, run: Run, ranOut: boolean): NodeApiError {
	if (ranOut) return timeoutError(ctx, req, run, 1, true);
	const message = `Cloud4Wi login failed: no token within ${Math.round(LOGIN_TIMEOUT_MS / 1000)} s`;
	return new NodeApiError(ctx.getNode(), { message } as JsonObject, { message, itemIndex: req.itemIndex });
}

/**
 * Sends `req` through n8n with the token emptied: n8n then logs in, stores the new token in the credential, and sends.
 * `onToken` hears of the token as soon as n8n sets it, before this request's answer: requests waiting for the login go
 * on then. Login and request share one time limit (see loginLimitOf); past it, nothing more is awaited.
 */
async function sendLoggingIn(
	ctx: Cloud4WiContext,
	run: Run,
	req: ApiRequest,
	timeoutMs: number,
	onToken: (token: string) => void,
) {
	let token = '';
	const data: ICredentialDataDecryptedObject = { ...run.credentials };
	Object.defineProperty(data, 'sessionToken', {
		enumerable: true,
		get: () => token,
		set: (value: unknown) => {
			token = typeof value === 'string' ? value : '';
			if (token) onToken(token);
		},
	});
	const details = ctx.getNode().credentials?.cloud4WiApi;
	const { timer, cancel, signal, ranOut } = loginLimitOf(ctx, run, timeoutMs);
	const options = requestOptions(run, req, timeoutMs, signal);
	// n8n replaces the signal with the execution's cancel signal, which ours includes: without ours, no time limit.
	Object.defineProperty(options, 'abortSignal', { get: () => signal, set: () => {}, enumerable: true });
	const sent = ctx.helpers.httpRequestWithAuthentication.call(ctx, 'cloud4WiApi', options, {
		credentialsDecrypted: { id: details?.id ?? '', name: details?.name ?? '', type: 'cloud4WiApi', data },
	}) as Promise<{ statusCode: number; headers: Record<string, unknown>; body: unknown }>;
	let answer: Answer;
	let failure: unknown;
	try {
		const response = await within(sent, signal);
		answer = response === OUT_OF_TIME ? noAnswer(undefined, true) : await answerOf(response);
	} catch (error) {
		failure = error;
		answer = noAnswer(error, timer.aborted); // logged in, then the request itself failed
	}
	if (cancel?.aborted) throw cancelledError(ctx, req);
	if (!token && (failure === undefined || timer.aborted)) throw loginOutOfTime(ctx, req, run, ranOut);
	if (!token) {
		const message = loginFailureOf(failure);
		throw new NodeApiError(ctx.getNode(), { message } as JsonObject, { message, itemIndex: req.itemIndex });
	}
	return { answer, token };
}

/** The login's own words (the credential raises them without the request); never the thrown object, which holds the secret. */
function loginFailureOf(error: unknown): string {
	const e = (error ?? {}) as { message?: string; description?: string; cause?: { message?: string } };
	const said = [e.cause?.message, e.message, e.description].find((m) => typeof m === 'string' && /Cloud4Wi/.test(m));
	return said ?? 'Cloud4Wi login failed. Check the credential.';
}

/**
 * A token for `run` after its own were refused (or none was stored): one login for every request waiting, in this
 * run and in other runs of this process; a token another execution or worker stored meanwhile is taken instead. The
 * request that leads the login carries it (and gets its answer); the others go on as soon as the token is known, each
 * waiting no longer than its own limit.
 */
async function renew(
	ctx: Cloud4WiContext,
	run: Run,
	req: ApiRequest,
	timeoutMs: number,
): Promise<Renewed & { answer?: Answer }> {
	const account = run.account;
	const newest = account.token;
	if (newest && !run.dead.has(newest)) return { token: newest, fromLogin: !!account.fresh };
	if (account.renewing) {
		const { cancel, signal, ranOut } = loginLimitOf(ctx, run, timeoutMs);
		const renewed = await within(account.renewing, signal);
		if (cancel?.aborted) throw cancelledError(ctx, req);
		if (renewed === OUT_OF_TIME) throw loginOutOfTime(ctx, req, run, ranOut);
		return { token: renewed.token, fromLogin: account.token === renewed.token ? !!account.fresh : renewed.fromLogin };
	}
	let tokenKnown: (token: string) => void = () => {};
	const loggedIn = new Promise<Renewed>((resolve) => (tokenKnown = (token) => resolve({ token, fromLogin: true })));
	const leading = (async (): Promise<Renewed & { answer?: Answer }> => {
		const stored = await ctx.getCredentials('cloud4WiApi');
		const storedToken = tokenOf(stored);
		if (storedToken && !run.dead.has(storedToken)) {
			return { token: storedToken, fromLogin: false };
		}
		const { answer, token } = await sendLoggingIn(ctx, { ...run, credentials: stored }, req, timeoutMs, tokenKnown);
		return { answer, token, fromLogin: true };
	})();
	// The others share the login's outcome: its token as soon as n8n has it, or its failure.
	const shared = Promise.race([loggedIn, leading]);
	account.renewing = shared;
	account.limiter.holdClimbFor(shared);
	void shared.then(
		({ token, fromLogin }) => {
			account.token = token;
			account.fresh = fromLogin;
			if (account.renewing === shared) account.renewing = undefined;
		},
		() => {
			if (account.renewing === shared) account.renewing = undefined;
		},
	);
	return await leading;
}

function timeoutError(ctx: Cloud4WiContext, req: ApiRequest, run: Run, tries: number, ranOut: boolean): NodeApiError {
	const seconds = Math.round(run.settings.timeoutMs / 100) / 10;
	const message = ranOut
		? `Cloud4Wi did not answer before the time for this ${'__emit' in ctx ? 'poll' : 'list'} ran out`
		: `Cloud4Wi did not answer within ${seconds} s`;
	const description =
		req.method === 'GET'
			? `Tried ${tries} time${tries > 1 ? 's' : ''}. Cloud4Wi may be down or slow: try again later, or raise the Timeout option.`
			: 'The write may or may not have been applied: check in Cloud4Wi before running it again.';
	const error = apiError(ctx, message, req, { description });
	timeouts.add(error);
	return error;
}

function tooLargeError(ctx: Cloud4WiContext, req: ApiRequest): NodeApiError {
	const mb = MAX_ANSWER_BYTES / 1024 / 1024;
	return apiError(ctx, `Cloud4Wi's answer was larger than ${mb} MB and was not read to the end`, req, {
		description:
			req.method === 'GET'
				? 'Cloud4Wi pages its lists in far smaller answers: check the base URL of the credential, or narrow the request.'
				: 'The write may or may not have been applied: check in Cloud4Wi before running it again.',
	});
}

function noAnswerError(ctx: Cloud4WiContext, req: ApiRequest, reason: string, tries: number): NodeApiError {
	const message = `No complete answer from Cloud4Wi (${reason})`;
	const description =
		req.method === 'GET'
			? `Tried ${tries} time${tries > 1 ? 's' : ''}. Check the base URL of the credential, or try again later.`
			: 'The write may or may not have been applied: check in Cloud4Wi before running it again.';
	return apiError(ctx, message, req, { description });
}

const HTML = /^\s*<(?:!doctype|html|head|body)/i;

/** What a body that is not a JSON object was, in words. */
function notJson(text: string): string {
	return HTML.test(text) ? 'an HTML page instead of JSON' : 'a body that is not JSON, or was cut short';
}

/** The JSON object of a body, or undefined; a bare list comes as `{ records }` (the spec shows no body for some lists). */
function jsonObject(text: string): IDataObject | undefined {
	try {
		const parsed: unknown = JSON.parse(text);
		if (Array.isArray(parsed)) return { records: parsed as IDataObject[] };
		return parsed && typeof parsed === 'object' ? (parsed as IDataObject) : undefined;
	} catch {
		return undefined;
	}
}

/** A refused answer's JSON, or a message saying what came instead (a proxy's HTML page, say). */
function refusalBody(status: number, text: string): unknown {
	if (text.trim() === '') return undefined;
	return jsonObject(text) ?? { message: `Cloud4Wi answered HTTP ${status} with ${notJson(text)}` };
}

/** A token for `run` after its token was refused (or none was stored); a failed login is kept for the whole run. */
async function renewed(ctx: Cloud4WiContext, run: Run, req: ApiRequest, timeoutMs: number) {
	try {
		const result = await renew(ctx, run, req, timeoutMs);
		if (result.token !== run.token) {
			run.token = result.token;
			run.fresh = result.fromLogin; // from a login, not yet shown to work
		}
		return result.answer;
	} catch (error) {
		run.loginFailure = (error as Error).message;
		throw apiError(ctx, run.loginFailure, req, {});
	}
}

/**
 * The one door to the Cloud4Wi API. Every request waits for a place in the account's limiter; the run's token goes
 * in a Bearer header; a refused token (401 or 403) is renewed once for everyone waiting; a 429 pauses every request
 * and is retried; 5xx, network failures and timeouts are retried for reads only; every failure is a NodeApiError.
 */
export async function cloud4WiApiRequest(this: Cloud4WiContext, req: ApiRequest): Promise<ApiResponse> {
	const run = await runOf(this).catch((error: Error) => {
		// The credential could not be read, or its base URL is refused: this item's error, with the reason.
		throw new NodeOperationError(this.getNode(), error.message, { itemIndex: req.itemIndex });
	});
	const isRead = req.method === 'GET';
	const cancel = cancelOf(this);
	let renewals = 0;
	let rateLimited = 0;
	let failures = 0;
	let waitedMs = 0; // for the retries Cloud4Wi asked for
	for (;;) {
		if (run.loginFailure) throw apiError(this, run.loginFailure, req, {});
		const { deadline } = run.settings;
		// A 429's pause, or other runs of this account, can hold a request long: no longer than a poll's budget.
		const slot = await run.account.limiter.acquire(run.settings.maxInFlight, { deadline, signal: cancel });
		if (!slot) {
			if (cancel?.aborted) throw cancelledError(this, req);
			throw timeoutError(this, req, run, failures + 1, true);
		}
		const left = deadline === undefined ? Number.POSITIVE_INFINITY : deadline - Date.now();
		const timeoutMs = Math.max(1, Math.min(run.settings.timeoutMs, left));
		let outcome: Outcome = 'failed';
		let pauseMs = 0;
		let limitedFor = 0;
		let stale = false;
		let answer: Answer;
		let used: string;
		try {
			// Checked once a place is free, since waiting for it can be long: the run may have stopped meanwhile.
			if (req.itemIndex !== undefined && run.settings.dropped?.(req.itemIndex)) {
				throw new NodeOperationError(this.getNode(), 'Not sent: an earlier item failed and the node stopped', {
					itemIndex: req.itemIndex,
				});
			}
			// No token yet, or the run's token was refused and nobody has replaced it: log in (once for all).
			stale = run.token === '' || run.dead.has(run.token);
			const carried = stale ? await renewed(this, run, req, timeoutMs) : undefined;
			used = run.token;
			run.sent.add(used);
			answer = carried ?? (await send(this, run, req, used, timeoutMs));
			if (answer.status === 429) {
				outcome = 'limited';
				pauseMs = retryAfterMs(String(answer.headers['retry-after'] ?? ''), rateLimited);
				// Every request pauses, but not for longer than one would wait for its own retries.
				limitedFor = Math.min(pauseMs, MAX_RETRY_WAIT_MS);
			} else if (!('failure' in answer) && answer.status < 500) {
				outcome = 'answered';
			}
		} finally {
			run.account.limiter.release(slot, outcome, limitedFor, !stale);
		}

		// Waits before a read's next try, unless that would pass the run's deadline (a poll's budget); false when the
		// request has waited its share of retries already.
		const backOff = async (retryAfter: string | undefined) => {
			const wait = retryAfterMs(retryAfter, failures);
			if (waitedMs + wait > MAX_RETRY_WAIT_MS) return false;
			failures++;
			waitedMs += wait;
			if (Date.now() + wait >= (run.settings.deadline ?? Number.POSITIVE_INFINITY)) {
				throw timeoutError(this, req, run, failures, true);
			}
			// n8n 2.x ends the wait when the execution is cancelled (1.x's sleep takes no signal: it waits it out).
			await sleep(wait, cancel).catch(() => {
				throw cancelledError(this, req);
			});
			return true;
		};
		if ('failure' in answer) {
			if (answer.failure === 'tooLarge') throw tooLargeError(this, req);
			if (isRead && failures < RETRIES && (await backOff(undefined))) continue;
			if (answer.failure === 'timeout') throw timeoutError(this, req, run, failures + 1, false);
			throw noAnswerError(this, req, answer.reason, failures + 1);
		}
		const { status } = answer;
		// Every answer, good or bad, is read with the secret and the token masked: a service that quotes them back (an
		// echo of the request) puts them in no output, error or log.
		const text = withoutSecrets(answer.text, run);
		if (TOKEN_REFUSED.has(status)) {
			// A token fresh from a login that was never accepted is refused for lack of rights, not for age.
			const permission = run.token === used && run.fresh;
			if (!permission && renewals++ < 2) {
				run.dead.add(used);
				continue;
			}
			throw serviceError(this, status, refusalBody(status, text), req, run);
		}
		if (status === 429 && rateLimited < RATE_LIMIT_RETRIES && waitedMs + pauseMs <= MAX_RETRY_WAIT_MS) {
			rateLimited++;
			waitedMs += pauseMs;
			continue; // the limiter holds every request for the pause
		}
		const retryAfter = String(answer.headers['retry-after'] ?? '');
		if (status >= 500 && isRead && failures < RETRIES && (await backOff(retryAfter))) continue;
		if (status >= 300 && status < 400) throw redirectError(this, status, answer.headers.location, req, run);
		if (status >= 300) throw serviceError(this, status, refusalBody(status, text), req, run);
		if (used === run.token) run.fresh = false; // this token works
		if (used === run.account.token) run.account.fresh = false;
		if (text.trim() === '') return { status, body: {} };
		const body = jsonObject(text);
		if (!body) {
			throw apiError(this, `Cloud4Wi answered HTTP ${status} with ${notJson(text)}`, req, {
				httpCode: String(status),
				description:
					'Usually a proxy or gateway between n8n and Cloud4Wi, or a base URL that points at a website instead of the API. Nothing from this answer was used.',
			});
		}
		return { status, body };
	}
}
