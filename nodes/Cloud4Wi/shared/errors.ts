import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { loginStatusOf, MOST_ANSWER_BYTES } from './answers';
import { RATE_LIMIT_RETRIES, timing } from './timing';

/** What went wrong with one request, as the user is told. */
export type Problem =
	/** Cloud4Wi answered with an error status; `said` is its message, secrets masked. */
	| { kind: 'status'; status: number; said?: string }
	| { kind: 'redirect'; status: number; to: string }
	/** `during`: the run whose time ran out (a poll, a list), else the request's own Timeout ran out. */
	| { kind: 'timeout'; seconds: number; during?: 'poll' | 'list' }
	| { kind: 'noAnswer'; reason: string }
	| { kind: 'tooLarge' }
	| { kind: 'notJson'; status: number; what: string }
	| { kind: 'cancelled' }
	| { kind: 'login'; said: string };

/** What the request was, for the hint: which record a 404 means, the scopes a 403 lacks, whether it was tried again. */
export interface Asked {
	method: string;
	notFound?: string;
	scopes?: string;
	itemIndex?: number;
	/** Tries made (a create is never sent twice). */
	tries: number;
}

const ADDRESS_TOO_LONG =
	"The request's address was too long for Cloud4Wi: a filter value is too long, or too many IDs are chosen in one filter.";

const STATUS_HINTS: Record<number, (asked: Asked) => string> = {
	400: () => 'Cloud4Wi refused a parameter of this request. Check the fields of this operation.',
	401: () => 'Cloud4Wi refused the credential. Check the client key and secret.',
	403: (asked) =>
		`Cloud4Wi refused access even with a fresh token: the API key lacks the role or scopes for this operation${
			asked.scopes ? ` (needs ${asked.scopes})` : ''
		}. Check the key under Manage > Developers > APIs.`,
	404: (asked) => `Cloud4Wi has no ${asked.notFound ?? 'such resource'}. Check the ID.`,
	409: () => 'Cloud4Wi refused a parameter of this request (conflict or invalid value). The message names it.',
	410: () => 'Cloud4Wi has revoked or removed this endpoint.',
	414: () => ADDRESS_TOO_LONG,
	431: () => ADDRESS_TOO_LONG,
	429: () =>
		`Cloud4Wi kept refusing for its rate limit. A request is tried again ${RATE_LIMIT_RETRIES} times at most, waiting as Cloud4Wi's Retry-After asks, up to ${timing.retryWaitMostMs / 1000} s while it answers no other request. Try again later, or lower Max Concurrent Requests.`,
};

/** A create (POST) is sent once: after an answer that does not say it failed before any work, it may have been applied. */
const MAYBE_APPLIED = 'The write may or may not have been applied: check in Cloud4Wi before running it again.';

/** After no usable answer: what the user can do, which depends on whether the request was tried again. */
function retryHint(asked: Asked, tryAgain: string): string {
	if (asked.method === 'POST') return MAYBE_APPLIED;
	return `Tried ${asked.tries} time${asked.tries > 1 ? 's' : ''}. ${tryAgain}`;
}

/** After a 5xx: a gateway's 502/504 or a 500 half way may come after a create was applied (see `mayHaveBeenServed`). */
const serverErrorHint = (asked: Asked) =>
	asked.method === 'POST' ? MAYBE_APPLIED : 'Cloud4Wi had an internal error. Try again later.';

const MESSAGES: { [K in Problem['kind']]: (p: Extract<Problem, { kind: K }>, asked: Asked) => [string, string?] } = {
	status: (p, asked) => [
		p.said ?? `Cloud4Wi answered HTTP ${p.status}`,
		STATUS_HINTS[p.status]?.(asked) ?? (p.status >= 500 ? serverErrorHint(asked) : undefined),
	],
	redirect: (p) => [
		`Cloud4Wi answered with a redirect (HTTP ${p.status}) to ${p.to}, which was not followed`,
		"The token is sent only to the credential's Base URL. Check it: it should be the address of the Cloud4Wi API itself.",
	],
	timeout: (p, asked) => [
		p.during
			? `Cloud4Wi did not answer before the time for this ${p.during} ran out`
			: `Cloud4Wi did not answer within ${p.seconds} s`,
		retryHint(asked, 'Cloud4Wi may be down or slow: try again later, or raise the Timeout option.'),
	],
	noAnswer: (p, asked) => [
		`No complete answer from Cloud4Wi (${p.reason})`,
		retryHint(asked, 'Check the base URL of the credential, or try again later.'),
	],
	tooLarge: (_, asked) => [
		`Cloud4Wi's answer was larger than ${MOST_ANSWER_BYTES / 1024 / 1024} MB and was not read to the end`,
		asked.method === 'GET'
			? 'Cloud4Wi pages its lists in far smaller answers: check the base URL of the credential, or narrow the request.'
			: MAYBE_APPLIED,
	],
	notJson: (p) => [
		`Cloud4Wi answered HTTP ${p.status} with ${p.what}`,
		'Usually a proxy or gateway between n8n and Cloud4Wi, or a base URL that points at a website instead of the API. Nothing from this answer was used.',
	],
	cancelled: () => ['The execution was cancelled'],
	login: (p) => [p.said],
};

/** Errors that mean "no answer in time", so a poll or a dropdown can hand over what it read before. */
const timeouts = new WeakSet<Error>();
export function isTimeout(error: unknown): boolean {
	return error instanceof Error && timeouts.has(error);
}

/** Errors after which the request may have been served all the same: no answer, its own timeout, a 5xx. */
const unanswered = new WeakSet<Error>();
export function mayHaveBeenServed(error: unknown): boolean {
	return error instanceof Error && unanswered.has(error);
}

/** The one place a failed request becomes an n8n error: the message, the service's status, a hint. */
export function cloud4WiError(node: INode, problem: Problem, asked: Asked): NodeApiError {
	const [message, description] = (MESSAGES[problem.kind] as (p: Problem, a: Asked) => [string, string?])(
		problem,
		asked,
	);
	const httpCode =
		'status' in problem ? String(problem.status) : problem.kind === 'login' ? loginStatusOf(problem.said) : undefined;
	const error = new NodeApiError(node, { message, ...(httpCode ? { httpCode } : {}) } as JsonObject, {
		message,
		description,
		httpCode,
		itemIndex: asked.itemIndex,
	});
	if (problem.kind === 'timeout') timeouts.add(error);
	const served = problem.kind === 'status' ? problem.status >= 500 : problem.kind === 'noAnswer';
	if (served || (problem.kind === 'timeout' && !problem.during)) unanswered.add(error);
	return error;
}
