import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { cloud4WiBaseUrl, tokenOf } from '../../../credentials/Cloud4WiApi.credentials';
import type { Asked, Problem } from './errors';
import { cloud4WiError, NETWORK_REASONS } from './errors';
import type { Learned, Outcome, RunShare } from './limiter';
import { Limiter } from './limiter';
import { sendLoggingIn } from './n8nLogin';
import { maskSecrets } from './secrets';
import { RATE_LIMIT_RETRIES, RETRIES, timing, waitBeforeRetry } from './timing';

export { apiPath } from './path';
export { isTimeout } from './errors';

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
	/** A delete tried again found the record gone: its first try, whose answer was lost, deleted it. */
	alreadyDeleted?: boolean;
}

/** Default of the Timeout option: a page of 10,000 records arrives well within it. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default (and most) of Max Concurrent Requests: the limiter finds the service's level, so the default stays out of the way. */
export const DEFAULT_MAX_IN_FLIGHT = 1000;
/** Largest answer read: a page of 10,000 contacts is about 17 MB of JSON; an answer without end must not fill memory. */
const MOST_ANSWER_BYTES = 64 * 1024 * 1024;
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

/** A token a renewal gave, and whether a login gave it (then, until it works, a refusal is about rights, not age). */
interface Renewed {
	token: string;
	fromLogin: boolean;
}

/** One Cloud4Wi account in this process (credential, base URL, client key): shared by every run that uses it. */
interface Account {
	limiter: Limiter;
	/** The newest token this process knows of. */
	token: string;
	/** The token being found for every request that needs one: the stored one, else a login. */
	renewing?: Promise<Renewed>;
}

/** One node run (an execution of the node, a poll, a dropdown load): the credential is read once for all its requests. */
interface Run {
	settings: RunSettings;
	credentials: ICredentialDataDecryptedObject;
	baseUrl: string;
	account: Account;
	share: RunShare;
	token: string;
	/** `token` came from a login during this run and has not worked yet. */
	fresh: boolean;
	/** Tokens refused or revoked in this run: never sent again, and masked wherever an answer quotes them. */
	refused: Set<string>;
	loginFailure?: string;
}

const accounts = new Map<string, Account>();
const runs = new WeakMap<object, Promise<Run>>();

/** Where a workflow keeps what the limiter learned, per credential: the account's limit outlives this process. */
const LIMITS_KEY = 'cloud4WiLimits';
type StoredLimit = Learned & { baseUrl: string };

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
		// A new process (a queue worker, `n8n execute`, a restart) starts at the limit an earlier one found.
		const stored = credentialId ? storedLimits(ctx)?.[credentialId] : undefined;
		account = { limiter: new Limiter(stored?.baseUrl === baseUrl ? stored : undefined), token: '' };
		accounts.set(key, account);
	}
	const share = { cap: settings.maxInFlight, inFlight: 0 };
	return {
		settings,
		credentials,
		baseUrl,
		account,
		share,
		token: tokenOf(credentials),
		fresh: false,
		refused: new Set(),
	};
}

/** Starts a node run with its settings (runs not started so use the defaults); the credential is read on first use. */
export function startRun(ctx: Cloud4WiContext, settings: Partial<RunSettings>): Promise<Run> {
	const run = openRun(ctx, { maxInFlight: DEFAULT_MAX_IN_FLIGHT, timeoutMs: timing.answerMs, ...settings });
	run.catch(() => {}); // a failed read is reported by the request that awaits it
	runs.set(ctx, run);
	return run;
}

function runOf(ctx: Cloud4WiContext): Promise<Run> {
	return runs.get(ctx) ?? startRun(ctx, {});
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
		// a context without workflow data: the limit stays known to this process only
	}
}

/** The credential as read at the start of this run (no read or decryption per item). */
export async function credentialsOf(ctx: Cloud4WiContext): Promise<ICredentialDataDecryptedObject> {
	return (await runOf(ctx)).credentials;
}

/** After a logout: the token is dead, the next request logs in. */
export async function forgetToken(ctx: Cloud4WiContext): Promise<void> {
	const run = await runOf(ctx);
	run.refused.add(run.token);
	if (run.account.token === run.token) run.account.token = '';
	run.token = '';
}

/** What came back for one try: an answer with its body as text, or why there was none. */
type Answer =
	| { status: number; headers: Record<string, unknown>; text: string }
	| { failure: 'timeout' | 'network' | 'tooLarge'; reason: string };

/** Waiting on other work ended by a time limit first. */
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

/** A request's time limit for its whole answer, with the execution's cancel signal where n8n gives one. */
function limitOf(ctx: Cloud4WiContext, run: Run, ms: number) {
	const left = run.settings.deadline === undefined ? Number.POSITIVE_INFINITY : run.settings.deadline - Date.now();
	const timer = AbortSignal.timeout(Math.max(1, Math.min(ms, left)));
	const cancel = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	return { timer, cancel, signal: cancel ? AbortSignal.any([timer, cancel]) : timer, ranOut: left < ms };
}

/** The renewal this request leads: how it tells the others the token, or that there is none yet. */
interface Lead {
	stored: ICredentialDataDecryptedObject;
	share(renewed: Renewed): void;
	refuse(error: Error): void;
}

/**
 * The token a request of `run` sends. When it has none it may send, one renewal serves every request of the account:
 * the token another execution or worker stored, else a login, which the request that leads it carries (a `Lead`).
 */
async function tokenFor(ctx: Cloud4WiContext, run: Run, asked: Asked): Promise<string | Lead> {
	const { account } = run;
	for (const token of [run.token, account.token]) if (token && !run.refused.has(token)) return (run.token = token);
	if (!account.renewing) return await lead(ctx, run);
	const { cancel, signal, ranOut } = limitOf(ctx, run, run.settings.timeoutMs + timing.loginMs);
	const renewed = await within(account.renewing, signal).catch((error: Error) => {
		throw fail(ctx, run, { kind: 'login', said: (run.loginFailure = error.message) }, asked);
	});
	if (cancel?.aborted) throw fail(ctx, run, { kind: 'cancelled' }, asked);
	if (renewed === OUT_OF_TIME) throw loginOutOfTime(ctx, run, asked, ranOut);
	if (renewed.token && !run.refused.has(renewed.token)) {
		run.fresh = renewed.fromLogin;
		return (run.token = renewed.token);
	}
	return await tokenFor(ctx, run, asked); // none, or one this run saw refused: look again
}

/** Starts the one renewal of the account: the stored credential first, since another run may have logged in. */
async function lead(ctx: Cloud4WiContext, run: Run): Promise<string | Lead> {
	const { account } = run;
	const handle = {} as Lead;
	const renewing = new Promise<Renewed>((resolve, reject) => {
		const done = () => {
			if (account.renewing === renewing) account.renewing = undefined;
		};
		handle.share = (renewed) => {
			if (renewed.token) account.token = renewed.token;
			resolve(renewed);
			done();
		};
		handle.refuse = (error) => {
			reject(error);
			done();
		};
	});
	renewing.catch(() => {}); // a failed login is reported by each request that waits for it
	account.renewing = renewing;
	try {
		handle.stored = await ctx.getCredentials('cloud4WiApi');
	} catch (error) {
		handle.refuse(error as Error);
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
	const stored = tokenOf(handle.stored);
	if (!stored || run.refused.has(stored)) return handle;
	handle.share({ token: stored, fromLogin: false });
	return (run.token = stored);
}

function loginOutOfTime(ctx: Cloud4WiContext, run: Run, asked: Asked, ranOut: boolean) {
	if (ranOut) return fail(ctx, run, { kind: 'timeout', seconds: 0, during: duringOf(ctx) }, asked);
	return fail(
		ctx,
		run,
		{ kind: 'login', said: `Cloud4Wi login failed: no token within ${timing.loginMs / 1000} s` },
		asked,
	);
}

/** Carries the login the request leads: n8n logs in, stores the token and sends `req`; the others go on once it is known. */
async function carryLogin(ctx: Cloud4WiContext, run: Run, req: ApiRequest, asked: Asked, login: Lead): Promise<Answer> {
	const { timer, cancel, signal, ranOut } = limitOf(ctx, run, run.settings.timeoutMs + timing.loginMs);
	let heard = '';
	const sent = sendLoggingIn(ctx, login.stored, requestOptions(run, req, signal), (token) => {
		login.share({ token: (heard = token), fromLogin: true });
	});
	let answer: Answer;
	let failure: unknown;
	try {
		const response = await within(sent, signal);
		answer = response === OUT_OF_TIME ? { failure: 'timeout', reason: 'timeout' } : await answerOf(response);
	} catch (error) {
		failure = error;
		answer = noAnswer(error, timer.aborted); // logged in, then the request itself failed
	}
	if (cancel?.aborted) throw fail(ctx, run, { kind: 'cancelled' }, asked);
	if (!heard && !timer.aborted) {
		// n8n stored the token before sending: read it there, should the credential's authenticate not have told it.
		const stored = tokenOf(await ctx.getCredentials('cloud4WiApi'));
		if (stored && !run.refused.has(stored)) login.share({ token: (heard = stored), fromLogin: true });
	}
	if (!heard && (failure === undefined || timer.aborted)) throw loginOutOfTime(ctx, run, asked, ranOut);
	if (!heard) {
		run.loginFailure = loginFailureOf(failure);
		login.refuse(new Error(run.loginFailure)); // a refused key: every request waiting fails with it, none logs in again
		throw fail(ctx, run, { kind: 'login', said: run.loginFailure }, asked);
	}
	run.token = heard;
	run.fresh = true;
	return answer;
}

/** The login's own words (the credential raises them without the request); never the thrown object, which holds the secret. */
function loginFailureOf(error: unknown): string {
	const e = (error ?? {}) as { message?: string; description?: string; cause?: { message?: string } };
	const said = [e.cause?.message, e.message, e.description].find((m) => typeof m === 'string' && /Cloud4Wi/.test(m));
	return said ?? 'Cloud4Wi login failed. Check the credential.';
}

function duringOf(ctx: Cloud4WiContext): 'poll' | 'list' {
	return '__emit' in ctx ? 'poll' : 'list';
}

/** `text` with the run's client secret and tokens masked: a service may quote what it was sent in its message. */
function withoutSecrets(text: string, run: Run): string {
	return maskSecrets(text, [run.credentials.clientSecret, run.token, run.account.token, ...run.refused]);
}

function fail(ctx: Cloud4WiContext, run: Run, problem: Problem, asked: Asked) {
	if (problem.kind === 'status' && problem.said) problem.said = withoutSecrets(problem.said, run);
	return cloud4WiError(ctx.getNode(), problem, asked);
}

/** A refused answer's message, or what came instead of JSON (a proxy's HTML page, say). */
function saidIn(status: number, text: string): string | undefined {
	if (text.trim() === '') return undefined;
	const body = jsonObject(text);
	if (!body) return `Cloud4Wi answered HTTP ${status} with ${notJson(text)}`;
	return typeof body.message === 'string' ? body.message : undefined;
}

function redirectTarget(location: unknown, run: Run): string {
	if (typeof location !== 'string' || !location) return 'no address';
	try {
		const url = new URL(location, `${run.baseUrl}/`);
		return withoutSecrets(`${url.origin}${url.pathname}`, run); // the address only: its query may hold anything
	} catch {
		return 'an address that is not a URL';
	}
}

/**
 * The one door to the Cloud4Wi API. Every request waits for a place in the account's limiter and goes with the run's
 * token; a refused token (401, 403) is renewed for everyone waiting; a 429 pauses the account and is sent again; a
 * lost answer, a timeout or a 5xx is tried again unless the request creates something (POST: it may have been applied).
 */
export async function cloud4WiApiRequest(this: Cloud4WiContext, req: ApiRequest): Promise<ApiResponse> {
	const run = await runOf(this).catch((error: Error) => {
		// The credential could not be read, or its base URL is refused: this item's error, with the reason.
		throw new NodeOperationError(this.getNode(), error.message, { itemIndex: req.itemIndex });
	});
	const asked: Asked = { ...req, tries: 1 };
	// GET, PUT and DELETE leave the same state when sent again (RFC 9110, 9.2.2); a create is never sent twice.
	const tryAgain = req.method !== 'POST';
	const cancel = 'getExecutionCancelSignal' in this ? this.getExecutionCancelSignal() : undefined;
	let failures = 0;
	let limited = 0;
	let renewals = 0;
	let waitedMs = 0; // for the retries Cloud4Wi asked for
	const backOff = async (retryAfter: unknown) => {
		const wait = waitBeforeRetry(retryAfter, failures);
		if (failures >= RETRIES || waitedMs + wait > timing.retryWaitMostMs) return false;
		if (Date.now() + wait >= (run.settings.deadline ?? Number.POSITIVE_INFINITY)) {
			throw fail(this, run, { kind: 'timeout', seconds: 0, during: duringOf(this) }, asked);
		}
		asked.tries = ++failures + 1;
		waitedMs += wait;
		// n8n 2.x ends the wait when the execution is cancelled (1.x's sleep takes no signal: it waits it out).
		await sleep(wait, cancel).catch(() => {
			throw fail(this, run, { kind: 'cancelled' }, asked);
		});
		return true;
	};
	for (;;) {
		if (run.loginFailure) throw fail(this, run, { kind: 'login', said: run.loginFailure }, asked);
		const token = await tokenFor(this, run, asked);
		const slot = await run.account.limiter.acquire(run.share, { deadline: run.settings.deadline, signal: cancel });
		if (!slot) {
			if (typeof token !== 'string') token.share({ token: '', fromLogin: false });
			if (cancel?.aborted) throw fail(this, run, { kind: 'cancelled' }, asked);
			throw fail(this, run, { kind: 'timeout', seconds: 0, during: duringOf(this) }, asked);
		}
		let outcome: Outcome = 'failed';
		let pauseMs = 0;
		let answer: Answer | undefined;
		let used = typeof token === 'string' ? token : '';
		try {
			// Checked once a place is free, since waiting for it can be long: the run may have stopped meanwhile.
			if (req.itemIndex !== undefined && run.settings.dropped?.(req.itemIndex)) {
				throw new NodeOperationError(this.getNode(), 'Not sent: an earlier item failed and the node stopped', {
					itemIndex: req.itemIndex,
				});
			}
			if (typeof token !== 'string') {
				answer = await carryLogin(this, run, req, asked, token);
				used = run.token;
			} else answer = await send(this, run, req, used);
			if ('status' in answer && answer.status === 429) {
				outcome = 'limited';
				pauseMs = waitBeforeRetry(answer.headers['retry-after'], limited);
			} else if ('status' in answer && answer.status < 500) outcome = 'answered';
		} finally {
			run.account.limiter.release(slot, outcome, Math.min(pauseMs, timing.retryWaitMostMs));
			if (typeof token !== 'string') token.share({ token: '', fromLogin: false }); // no-op once told: else the others lead
		}
		if (!('status' in answer)) {
			if (answer.failure !== 'tooLarge' && tryAgain && (await backOff(undefined))) continue;
			const seconds = Math.round(run.settings.timeoutMs / 100) / 10;
			if (answer.failure === 'timeout') throw fail(this, run, { kind: 'timeout', seconds }, asked);
			const problem: Problem =
				answer.failure === 'tooLarge' ? { kind: 'tooLarge' } : { kind: 'noAnswer', reason: answer.reason };
			throw fail(this, run, problem, asked);
		}
		const { status } = answer;
		// Every answer is read with the secret and the tokens masked: a service that quotes them back puts them nowhere.
		const text = withoutSecrets(answer.text, run);
		if (TOKEN_REFUSED.has(status)) {
			// A token fresh from a login that never worked is refused for lack of rights, not for age.
			if (!(used === run.token && run.fresh) && renewals++ < 2) {
				run.refused.add(used);
				continue;
			}
			throw fail(this, run, { kind: 'status', status, said: saidIn(status, text) }, asked);
		}
		if (status === 429 && limited < RATE_LIMIT_RETRIES && waitedMs + pauseMs <= timing.retryWaitMostMs) {
			limited++;
			waitedMs += pauseMs;
			continue; // the limiter holds every request of the account for the pause
		}
		if (status >= 500 && tryAgain && (await backOff(answer.headers['retry-after']))) continue;
		if (used === run.token) run.fresh = false; // this token works
		if (status === 404 && req.method === 'DELETE' && failures > 0) return { status, body: {}, alreadyDeleted: true };
		if (status >= 300 && status < 400) {
			throw fail(this, run, { kind: 'redirect', status, to: redirectTarget(answer.headers.location, run) }, asked);
		}
		if (status >= 300) throw fail(this, run, { kind: 'status', status, said: saidIn(status, text) }, asked);
		if (text.trim() === '') return { status, body: {} };
		const body = jsonObject(text);
		if (!body) throw fail(this, run, { kind: 'notJson', status, what: notJson(text) }, asked);
		return { status, body };
	}
}

function requestOptions(run: Run, req: ApiRequest, signal: AbortSignal): IHttpRequestOptions {
	const query = Object.entries(req.query ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== '');
	return {
		method: req.method,
		url: `${run.baseUrl}${req.path}`,
		qs: query.length ? Object.fromEntries(query) : undefined,
		body: req.body,
		json: true,
		// Read here as it streams in, then parsed: a proxy's HTML page or a cut-short body must fail, not pass as an empty
		// answer, and an answer without end must not fill memory.
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: run.settings.timeoutMs,
		// For the whole answer: n8n's `timeout` only limits the wait for each next byte, and a trickled body never ends.
		abortSignal: signal,
		// n8n would follow a redirect with the Authorization header, to any host: the token goes to the Base URL only.
		disableFollowRedirect: true,
	};
}

/** The cheap path: the run's token, n8n's plain request helper, a time limit for the whole answer. */
async function send(ctx: Cloud4WiContext, run: Run, req: ApiRequest, token: string): Promise<Answer> {
	const { timer, cancel, signal } = limitOf(ctx, run, run.settings.timeoutMs);
	const options = requestOptions(run, req, signal);
	options.headers = { Authorization: `Bearer ${token}` };
	try {
		return await answerOf(await ctx.helpers.httpRequest(options)); // a body cut short or timed out fails in here
	} catch (error) {
		if (cancel?.aborted) throw fail(ctx, run, { kind: 'cancelled' }, { ...req, tries: 1 });
		return noAnswer(error, timer.aborted);
	}
}

/** Reads a thrown request error without keeping it (it holds the request, headers included). */
function noAnswer(error: unknown, timedOut: boolean): Answer {
	const e = (error ?? {}) as { code?: string; message?: string; cause?: { code?: string; message?: string } };
	const code = e.code ?? e.cause?.code ?? '';
	const message = `${e.message ?? ''} ${e.cause?.message ?? ''}`;
	if (timedOut || code === 'ECONNABORTED' || /timeout of \d+ms exceeded/.test(message)) {
		return { failure: 'timeout', reason: 'timeout' };
	}
	const reason =
		NETWORK_REASONS[code] ?? (/aborted/i.test(message) ? 'the answer was cut short' : code || 'network error');
	return { failure: 'network', reason };
}

interface BodyStream {
	on(event: string, listener: (arg: unknown) => void): unknown;
	destroy(): unknown;
}

/** An answer's status, headers and body text, the body read as it streams in up to MOST_ANSWER_BYTES. */
async function answerOf(response: unknown): Promise<Answer> {
	const {
		statusCode,
		headers = {},
		body,
	} = response as { statusCode: number; headers?: Record<string, unknown>; body: unknown };
	const stream = body as BodyStream | undefined;
	if (typeof stream?.on !== 'function' || typeof stream.destroy !== 'function') {
		const text =
			typeof body === 'string' ? body : Buffer.isBuffer(body) ? body.toString('utf8') : JSON.stringify(body ?? '');
		return { status: statusCode, headers, text: body === undefined || body === null ? '' : text };
	}
	const text = await new Promise<string | undefined>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let settled = false;
		stream.on('data', (chunk) => {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
			size += buffer.length;
			if (size <= MOST_ANSWER_BYTES) return void chunks.push(buffer);
			settled = true;
			stream.destroy();
			resolve(undefined);
		});
		stream.on('end', () => {
			settled = true;
			resolve(Buffer.concat(chunks, size).toString('utf8'));
		});
		// The headers came, the body stopped ('close' follows every 'end' too: no error is built then, ~15 µs an answer).
		const cutShort = () => {
			if (!settled) reject(Object.assign(new Error('The answer was cut short'), { code: 'ERR_BAD_RESPONSE' }));
		};
		stream.on('error', cutShort);
		stream.on('close', cutShort);
	});
	if (text === undefined) return { failure: 'tooLarge', reason: 'too large' };
	return { status: statusCode, headers, text };
}

/** What a body that is not a JSON object was, in words. */
function notJson(text: string): string {
	return /^\s*<(?:!doctype|html|head|body)/i.test(text)
		? 'an HTML page instead of JSON'
		: 'a body that is not JSON, or was cut short';
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
