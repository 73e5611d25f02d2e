import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import { cloud4WiBaseUrl } from '../../../credentials/Cloud4WiApi.credentials';

export type Cloud4WiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path with every id already encoded (see `apiPath`). */
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

/** Retries after a 429 (any request) or a 5xx or network failure (reads only). */
export const RETRIES = 4;
const BACKOFF_BASE_MS = 500;
const MAX_WAIT_MS = 60_000;
/** Both mean "token refused": the vendor documents 403 for an expired token, n8n renews on 401 by default. */
const TOKEN_REFUSED = [401, 403];

/** Builds a path, URL-encoding every interpolated id so no id can change the route. */
export function apiPath(strings: TemplateStringsArray, ...ids: string[]): string {
	return strings.reduce((path, part, i) => path + part + (i < ids.length ? encodeURIComponent(ids[i]) : ''), '');
}

function dropEmpty(query: IDataObject | undefined): IDataObject | undefined {
	if (!query) return undefined;
	const kept = Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '');
	return kept.length ? Object.fromEntries(kept) : undefined;
}

function retryDelayMs(attempt: number, retryAfter: string | undefined): number {
	if (retryAfter !== undefined && retryAfter !== '') {
		const seconds = Number(retryAfter);
		const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
		if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), MAX_WAIT_MS);
	}
	return Math.min(BACKOFF_BASE_MS * 2 ** attempt, MAX_WAIT_MS);
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
		`Cloud4Wi's rate limit was reached and stayed reached after ${RETRIES} retries. Try again later or slow the workflow down.`,
};

/** The one place a failed answer becomes an n8n error: the service's message, its status, a hint. */
export function serviceError(ctx: Cloud4WiContext, status: number, body: unknown, req: ApiRequest): NodeApiError {
	const said =
		body && typeof body === 'object' && typeof (body as IDataObject).message === 'string'
			? ((body as IDataObject).message as string)
			: `Cloud4Wi answered HTTP ${status}`;
	const hint = HINTS[status]?.(req) ?? (status >= 500 ? 'Cloud4Wi had an internal error. Try again later.' : undefined);
	return new NodeApiError(ctx.getNode(), { message: said, httpCode: String(status) } as JsonObject, {
		message: said,
		description: hint,
		httpCode: String(status),
		itemIndex: req.itemIndex,
	});
}

/** Status and message of an error thrown by n8n's request helper, read without keeping the error (it holds headers). */
function readThrown(error: unknown): { status?: number; message: string; network: boolean } {
	const e = (error ?? {}) as {
		httpCode?: string | null;
		message?: string;
		description?: string;
		context?: { data?: { message?: unknown } };
		cause?: { code?: string; response?: { status?: number } };
	};
	const status = Number(e.httpCode ?? e.cause?.response?.status) || undefined;
	const dataMessage = e.context?.data?.message;
	const message = typeof dataMessage === 'string' ? dataMessage : (e.description ?? e.message ?? 'Request failed');
	const network = status === undefined && typeof e.cause?.code === 'string' && /^E[A-Z]+/.test(e.cause.code);
	return { status, message, network };
}

/**
 * The one door to the Cloud4Wi API: Bearer token from the credential, one renewal when the token is refused
 * (401 or 403), bounded retries (429 always, 5xx and network errors on reads), and every failure as a NodeApiError.
 */
export async function cloud4WiApiRequest(this: Cloud4WiContext, req: ApiRequest): Promise<ApiResponse> {
	const credentials = await this.getCredentials('cloud4WiApi');
	const isRead = req.method === 'GET';
	for (let attempt = 0; ; attempt++) {
		let response: { statusCode: number; body: unknown; headers: Record<string, string | undefined> };
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				'cloud4WiApi',
				{
					method: req.method,
					url: `${cloud4WiBaseUrl(credentials)}${req.path}`,
					qs: dropEmpty(req.query),
					body: req.body,
					json: true,
					returnFullResponse: true,
					// Token refusals must throw so n8n renews the token; every other status is ours to read.
					ignoreHttpStatusErrors: { ignore: true, except: TOKEN_REFUSED },
				},
				{ preAuthenticationRetryStatusCode: TOKEN_REFUSED },
			)) as typeof response;
		} catch (error) {
			const thrown = readThrown(error);
			if (thrown.network && isRead && attempt < RETRIES) {
				await sleep(retryDelayMs(attempt, undefined));
				continue;
			}
			if (thrown.status) throw serviceError(this, thrown.status, { message: thrown.message }, req);
			// Login failures and network errors: a fresh error with the message only, never the request.
			throw new NodeApiError(this.getNode(), { message: thrown.message } as JsonObject, {
				message: thrown.message,
				itemIndex: req.itemIndex,
			});
		}
		const status = response.statusCode;
		if (status >= 200 && status < 300) {
			const body = response.body && typeof response.body === 'object' ? (response.body as IDataObject) : {};
			return { status, body };
		}
		// A 429 was refused before any work, so even a write may go again; a 5xx write may have been applied.
		const retryable = status === 429 || (status >= 500 && isRead);
		if (retryable && attempt < RETRIES) {
			await sleep(retryDelayMs(attempt, response.headers?.['retry-after']));
			continue;
		}
		throw serviceError(this, status, response.body, req);
	}
}
