import type { IDataObject } from 'n8n-workflow';

/** Reading one try's answer: its status, headers and body as text, or why there was none. */

/** Largest answer read: a page of 10,000 contacts is about 17 MB of JSON; an answer without end must not fill memory. */
export const MOST_ANSWER_BYTES = 64 * 1024 * 1024;

/** Words for the network failures a wrong base URL or a cut connection causes (the node and the credential). */
export const NETWORK_REASONS: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset before the answer was complete',
	EPIPE: 'connection broken',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'host not found',
	ETIMEDOUT: 'timed out',
	ECONNABORTED: 'timed out',
	ERR_BAD_RESPONSE: 'the answer was cut short',
	CERT_HAS_EXPIRED: 'its TLS certificate has expired',
	DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
};

/** What came back for one try: an answer with its body as text, or why there was none. */
export type Answer =
	| { status: number; headers: Record<string, unknown>; text: string }
	| { failure: 'timeout' | 'network' | 'tooLarge'; reason: string };

/** Reads a thrown request error without keeping it (it holds the request, headers included). */
export function noAnswer(error: unknown, timedOut: boolean): Answer {
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
export async function answerOf(response: unknown): Promise<Answer> {
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

const isHtml = (text: string) => /^\s*<(?:!doctype|html|head|body)/i.test(text);

/** What a body that is not a JSON object was, in words. */
export function notJson(text: string): string {
	return isHtml(text) ? 'an HTML page instead of JSON' : 'a body that is not JSON, or was cut short';
}

/** A refused login's message: n8n hands the node only the message of the credential's error, so it holds the status. */
export function loginRefusal(status: number, said: string, hint: string): string {
	return `Cloud4Wi login failed (HTTP ${status}): ${said}. ${hint}`;
}

/** The status a refused login's message holds (see `loginRefusal`). */
export function loginStatusOf(message: string): string | undefined {
	return /^Cloud4Wi login failed \(HTTP (\d{3})\): /.exec(message)?.[1];
}

/** Most characters of a service's words kept in an error: n8n shows the message and stores it with the execution. */
export const MOST_SAID_CHARS = 2000;

/** `words` cut to MOST_SAID_CHARS, saying how long they were (cut after masking: a secret cut in two escapes the mask). */
export function clipped(words: string): string {
	if (words.length <= MOST_SAID_CHARS) return words;
	const head = words.slice(0, MOST_SAID_CHARS).replace(/[\uD800-\uDBFF]$/, ''); // not half a character
	return `${head}… (${words.length} characters in all)`;
}

/** The words in a refusal's JSON: a text, or `message` (the spec's), `error` or `errors` (gateways' shapes), or a list of them. */
function wordsIn(value: unknown, depth: number): string | undefined {
	if (typeof value === 'string') return value.trim() || undefined;
	if (!value || typeof value !== 'object' || depth > 3) return undefined;
	if (Array.isArray(value)) {
		const each = value.map((entry) => wordsIn(entry, depth + 1)).filter((words) => words !== undefined);
		return each.length ? each.join('; ') : undefined;
	}
	const body = value as IDataObject;
	for (const key of ['message', 'error', 'errors']) {
		const words = wordsIn(body[key], depth + 1);
		if (words !== undefined) return words;
	}
	return Object.keys(body).length ? JSON.stringify(body) : undefined; // a shape of its own: shown as it came
}

/**
 * What a refusal says, from its text or n8n's parsed body: its words in the shapes services use, else the body itself.
 * Undefined for an empty body, `{}`, a JSON value without words, or an HTML page (a proxy's, not the service's words).
 */
export function refusalWords(body: unknown): string | undefined {
	if (typeof body !== 'string') return wordsIn(body, 0);
	const text = body.trim();
	if (!text || isHtml(text)) return undefined;
	try {
		return wordsIn(JSON.parse(text), 0);
	} catch {
		return text;
	}
}

/** The JSON object of a body, or undefined; a bare list comes as `{ records }` (the spec shows no body for some lists). */
export function jsonObject(text: string): IDataObject | undefined {
	try {
		const parsed: unknown = JSON.parse(text);
		if (Array.isArray(parsed)) return { records: parsed as IDataObject[] };
		return parsed && typeof parsed === 'object' ? (parsed as IDataObject) : undefined;
	} catch {
		return undefined;
	}
}
