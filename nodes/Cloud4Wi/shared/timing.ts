/**
 * Every time limit of the package in one object, so that tests can scale them all down together (the relations
 * between them are what the tests assert). Production values: see test/transport/time-limits.test.ts, which pins them.
 */
export const timing = {
	/** How long a request waits for its whole answer where no Timeout is set (the trigger, the dropdowns, the default). */
	answerMs: 30_000,
	/** One login, all its tries and waits together: every request of the run waits for it. */
	loginMs: 30_000,
	/** Longest wait before another login try; a longer Retry-After fails the login at once. */
	loginWaitMostMs: 10_000,
	/** The first back-off before a retry; it doubles with each try. */
	backOffMs: 500,
	/** Most one request waits in all for the retries Cloud4Wi asks for (Retry-After, back-off); also the longest pause. */
	retryWaitMostMs: 60_000,
	/** A poll's budget where n8n gives none (1.x starts polls at most once a minute, without waiting for the last). */
	pollBudgetMs: 60_000,
	/** How long a dropdown waits for its list: someone watching it load gives up well before a minute. */
	dropdownMs: 60_000,
};

/** Retries after a 5xx, a lost answer or a timeout (not for a create: it may have been applied). */
export const RETRIES = 4;
/** Retries after a 429 (any request: it was refused before any work). Each waits for the Retry-After. */
export const RATE_LIMIT_RETRIES = 8;

/** The back-off before try `attempt + 1` (0: the first retry). */
export function backOff(attempt: number): number {
	return timing.backOffMs * 2 ** attempt;
}

/**
 * The wait a Retry-After header asks for: whole seconds, or an HTTP date (one in the past asks for none); undefined when
 * absent or unreadable (`0x10`, `1e9`, `-5` are not seconds).
 */
function retryAfterOf(value: unknown): number | undefined {
	const text = (typeof value === 'string' ? value : '').trim();
	if (/^\d+$/.test(text)) return Number(text) * 1000;
	if (!/[a-z]/i.test(text)) return undefined;
	const ms = Date.parse(text) - Date.now();
	return Number.isFinite(ms) ? Math.max(ms, 0) : undefined;
}

/**
 * The wait before try `attempt + 1`: what Cloud4Wi asked for, else the back-off. Asked again, never less than the
 * back-off before: a Retry-After of 0 (or in the past) must not turn into tries back to back.
 */
export function waitBeforeRetry(retryAfter: unknown, attempt: number): number {
	const asked = retryAfterOf(retryAfter);
	if (asked === undefined) return backOff(attempt);
	return attempt === 0 ? asked : Math.max(asked, backOff(attempt - 1));
}

/**
 * A time limit for a whole answer, with the execution's cancel signal if there is one: n8n's own `timeout` only limits
 * the wait for each next byte, and a trickled answer never trips it.
 */
export function answerLimit(ms: number, cancel?: unknown) {
	const timer = AbortSignal.timeout(Math.max(1, ms));
	return { timer, signal: cancel instanceof AbortSignal ? AbortSignal.any([timer, cancel]) : timer };
}
