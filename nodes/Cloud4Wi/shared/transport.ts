import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { tokenOf } from '../../../credentials/Cloud4WiApi.credentials';
import type { Asked, Problem } from './errors';
import type { Answer } from './answers';
import { answerOf, clipped, jsonObject, noAnswer, notJson, refusalWords } from './answers';
import { cloud4WiError } from './errors';
import type { Outcome, Slot } from './limiter';
import { loginRetryAfter, sendLoggingIn } from './n8nLogin';
import { maskSecrets } from './secrets';
import type { Cloud4WiContext, Renewed, Run } from './runs';
import { runOf } from './runs';
import { answerLimit, RATE_LIMIT_RETRIES, RETRIES, timing, waitBeforeRetry } from './timing';

export { apiPath } from './path';
export { isTimeout, mayHaveBeenServed } from './errors';

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
	/** A scroll's next page: Cloud4Wi moves the scroll as it answers, so a lost answer is not asked for again (paging). */
	movesScroll?: boolean;
}

interface ApiResponse {
	status: number;
	body: IDataObject;
	/** A delete tried again found the record gone: its first try, whose answer was lost, deleted it. */
	alreadyDeleted?: boolean;
}

/** Both mean "token refused": the vendor documents 403 for an expired token, 401 is the usual word for it. */
const TOKEN_REFUSED = new Set([401, 403]);

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
	const cancel = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
	return { ...answerLimit(Math.min(ms, left), cancel), cancel, ranOut: left < ms };
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
	// The login's request may first wait out a pause for its place (at most a minute: a per-minute limit's Retry-After).
	const waitMs = timing.retryWaitMostMs + timing.loginMs + run.settings.timeoutMs;
	const { cancel, signal, ranOut } = limitOf(ctx, run, waitMs);
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
	// Refused for the rate limit (a per-minute limit may ask for the rest of its minute): the next login after the pause.
	const retryAfter = heard ? undefined : loginRetryAfter(login.stored);
	const wait = retryAfter === undefined ? Number.POSITIVE_INFINITY : waitBeforeRetry(retryAfter, 0);
	if (run.loginWaitedMs + wait <= timing.retryWaitMostMs) {
		run.loginWaitedMs += wait;
		return { status: 429, headers: { 'retry-after': retryAfter }, text: '' };
	}
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

/** A refused answer's words, or what came instead of them (a proxy's HTML page, say). */
function saidIn(status: number, text: string): string | undefined {
	if (text.trim() === '') return undefined;
	const words = refusalWords(text);
	if (words !== undefined) return clipped(words);
	return jsonObject(text) ? undefined : `Cloud4Wi answered HTTP ${status} with ${notJson(text)}`;
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
 * lost answer, a timeout or a 5xx is tried again unless the request creates something (POST: it may have been applied)
 * or moves a scroll (paging reads the list again).
 */
export async function cloud4WiApiRequest(this: Cloud4WiContext, req: ApiRequest): Promise<ApiResponse> {
	const run = await runOf(this).catch((error: Error) => {
		// The credential could not be read, or its base URL is refused: this item's error, with the reason.
		throw new NodeOperationError(this.getNode(), error.message, { itemIndex: req.itemIndex });
	});
	const call = new Call(this, run, req);
	for (;;) {
		const place = await call.acquire();
		if (!place) continue; // its token was refused while it waited, and no newer one is known yet
		const sent = await call.sendIn(place);
		const response = await call.decide(sent);
		if (response) return response;
	}
}

/** A place in the account's limiter, and the token sent in it (a `Lead`: this request carries the login). */
interface Place {
	slot: Slot;
	token: string | Lead;
}

/** One send's answer, the token it went with, and the pause a 429 asked for. */
interface Sent {
	answer: Answer;
	used: string;
	pauseMs: number;
}

/** One request through its tries: what it has spent of its retries and waits, and each step of a try. */
class Call {
	private failures = 0; // lost answers, timeouts and 5xx sent again
	private limited = 0; // 429s sent again
	private renewals = 0; // refused tokens renewed
	private waitedMs = 0; // for the retries Cloud4Wi asked for
	private answeredBefore: number; // by the account, before this request's last try
	private readonly asked: Asked;
	/** GET, PUT and DELETE leave the same state when sent again (RFC 9110, 9.2.2); a create is never sent twice. */
	private readonly tryAgain: boolean;
	private readonly cancel: AbortSignal | undefined;

	constructor(
		private readonly ctx: Cloud4WiContext,
		private readonly run: Run,
		private readonly req: ApiRequest,
	) {
		this.asked = { ...req, tries: 1 };
		this.tryAgain = req.method !== 'POST' && !req.movesScroll;
		this.cancel = 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
		this.answeredBefore = run.account.answered;
	}

	/** A token and a place to send it in; undefined when the token was refused meanwhile and none newer is known. */
	async acquire(): Promise<Place | undefined> {
		const { ctx, run } = this;
		if (run.loginFailure) throw this.fail({ kind: 'login', said: run.loginFailure });
		const token = await tokenFor(ctx, run, this.asked);
		const until = { deadline: run.settings.deadline, signal: this.cancel, first: typeof token !== 'string' };
		const slot = await run.account.limiter.acquire(until);
		if (!slot) {
			if (typeof token !== 'string') token.share({ token: '', fromLogin: false });
			if (this.cancel?.aborted) throw this.fail({ kind: 'cancelled' });
			throw this.fail({ kind: 'timeout', seconds: 0, during: duringOf(ctx) });
		}
		if (typeof token !== 'string' || !run.refused.has(token)) return { slot, token };
		// Refused while this one waited for its place (an expiry mid-run): the newer token, or none until the login ends.
		const newer = [run.token, run.account.token].find((other) => other && !run.refused.has(other)) ?? '';
		if (!newer) {
			run.account.limiter.release(slot, 'failed');
			return undefined;
		}
		run.token = newer;
		return { slot, token: newer };
	}

	/** Sends the request in its place (carrying the login it leads), then gives the place back with how it went. */
	async sendIn({ slot, token }: Place): Promise<Sent> {
		const { ctx, run, req } = this;
		let outcome: Outcome = 'failed';
		let pauseMs = 0;
		let answer: Answer;
		let used = typeof token === 'string' ? token : '';
		try {
			this.stopIfDropped();
			if (typeof token !== 'string') {
				answer = await carryLogin(ctx, run, req, this.asked, token);
				used = run.token;
			} else answer = await send(ctx, run, req, used);
			if ('status' in answer && answer.status === 429) {
				outcome = 'limited';
				pauseMs = waitBeforeRetry(answer.headers['retry-after'], this.limited);
			} else if ('status' in answer && answer.status < 500) outcome = 'answered';
		} finally {
			run.account.limiter.release(slot, outcome, Math.min(pauseMs, timing.retryWaitMostMs));
			if (outcome === 'answered') run.account.answered++;
			if (typeof token !== 'string') token.share({ token: '', fromLogin: false }); // no-op once told: else the others lead
		}
		return { answer, used, pauseMs };
	}

	/** Checked once a place is free, since waiting for it can be long: the run may have stopped meanwhile. */
	private stopIfDropped(): void {
		const { itemIndex } = this.req;
		if (itemIndex !== undefined && this.run.settings.dropped?.(itemIndex)) {
			throw new NodeOperationError(this.ctx.getNode(), 'Not sent: an earlier item failed and the node stopped', {
				itemIndex,
			});
		}
	}

	/** The response, or undefined to send again: a token renewed, a 429 waited out, a failure tried again. Else it fails. */
	async decide({ answer, used, pauseMs }: Sent): Promise<ApiResponse | undefined> {
		if (!('status' in answer)) return await this.afterNoAnswer(answer);
		const { status, headers } = answer;
		// Every answer is read with the secret and the tokens masked: a service that quotes them back puts them nowhere.
		const text = withoutSecrets(answer.text, this.run);
		if (TOKEN_REFUSED.has(status)) {
			if (this.renew(used)) return undefined;
			throw this.fail({ kind: 'status', status, said: saidIn(status, text) });
		}
		if (status === 429 && this.waitOut(pauseMs)) return undefined; // the limiter holds the account for the pause
		if (status >= 500 && this.tryAgain && (await this.backOff(headers['retry-after']))) return undefined;
		if (used === this.run.token) this.run.fresh = false; // this token works
		return this.responseOf(status, headers, text);
	}

	/** No answer came: tried again where it may be, else the failure named. */
	private async afterNoAnswer(answer: Exclude<Answer, { status: number }>): Promise<undefined> {
		if (answer.failure !== 'tooLarge' && this.tryAgain && (await this.backOff(undefined))) return undefined;
		const seconds = Math.round(this.run.settings.timeoutMs / 100) / 10;
		if (answer.failure === 'timeout') throw this.fail({ kind: 'timeout', seconds });
		throw this.fail(answer.failure === 'tooLarge' ? { kind: 'tooLarge' } : { kind: 'noAnswer', reason: answer.reason });
	}

	/** A refused token: marked refused so the next try renews it, at most twice. */
	private renew(used: string): boolean {
		// A token fresh from a login that never worked is refused for lack of rights, not for age.
		if ((used === this.run.token && this.run.fresh) || this.renewals++ >= 2) return false;
		this.run.refused.add(used);
		return true;
	}

	/** A 429: whether it is sent again after the pause the limiter holds the account for. */
	private waitOut(pauseMs: number): boolean {
		const { account } = this.run;
		// Others answered since its last try: Cloud4Wi paces the account (a per-minute limit may refuse a write twice,
		// a minute each time), it does not refuse for good. Its waits start over; its tries stay counted.
		if (account.answered > this.answeredBefore) this.waitedMs = 0;
		this.answeredBefore = account.answered;
		if (this.limited >= RATE_LIMIT_RETRIES || this.waitedMs + pauseMs > timing.retryWaitMostMs) return false;
		this.limited++;
		this.waitedMs += pauseMs;
		return true;
	}

	/** Waits before trying a failure again; false when its tries or waits are spent. */
	private async backOff(retryAfter: unknown): Promise<boolean> {
		const wait = waitBeforeRetry(retryAfter, this.failures);
		if (this.failures >= RETRIES || this.waitedMs + wait > timing.retryWaitMostMs) return false;
		if (Date.now() + wait >= (this.run.settings.deadline ?? Number.POSITIVE_INFINITY)) {
			throw this.fail({ kind: 'timeout', seconds: 0, during: duringOf(this.ctx) });
		}
		this.asked.tries = ++this.failures + 1;
		this.waitedMs += wait;
		// n8n 2.x ends the wait when the execution is cancelled (1.x's sleep takes no signal: it waits it out).
		await sleep(wait, this.cancel).catch(() => {
			throw this.fail({ kind: 'cancelled' });
		});
		return true;
	}

	/** A final answer read: an empty or JSON body, or the service's refusal, a redirect or a body that is not JSON. */
	private responseOf(status: number, headers: Record<string, unknown>, text: string): ApiResponse {
		const { req, run } = this;
		// A delete tried again found the record gone: its first try, whose answer was lost, deleted it.
		const deletedBefore = status === 404 && req.method === 'DELETE' && this.failures > 0;
		if (deletedBefore) return { status, body: {}, alreadyDeleted: true };
		if (status >= 300 && status < 400) {
			throw this.fail({ kind: 'redirect', status, to: redirectTarget(headers.location, run) });
		}
		if (status >= 300) throw this.fail({ kind: 'status', status, said: saidIn(status, text) });
		if (text.trim() === '') return { status, body: {} };
		const body = jsonObject(text);
		if (!body) throw this.fail({ kind: 'notJson', status, what: notJson(text) });
		return { status, body };
	}

	private fail(problem: Problem) {
		return fail(this.ctx, this.run, problem, this.asked);
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
