'use strict';
// HTTP plumbing: JSON in and out, the request log, injected faults, and the /__admin door.

const http = require('node:http');
const { HttpError } = require('./params');

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const ADMIN_PREFIX = '/__admin';

function readBody(req) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		let size = 0;
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) reject(new HttpError(413, 'Request body too large'));
			else chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.on('error', reject);
	});
}

/** Parsed JSON; an unparsable body is kept as text and flagged, and the API answers 409 for it. */
function parseBody(text) {
	if (!text.trim()) return { body: undefined, bodyError: false };
	try {
		return { body: JSON.parse(text), bodyError: false };
	} catch {
		return { body: text, bodyError: true };
	}
}

function errorReply(error) {
	if (error instanceof HttpError)
		return { status: error.status, headers: error.headers, body: { message: error.message } };
	return { status: 500, body: { message: `Internal server error: ${error?.message ?? error}` } };
}

/** Runs a handler and turns whatever it throws into an error reply. */
async function settle(handler) {
	try {
		return await handler();
	} catch (error) {
		return errorReply(error);
	}
}

/** An injected fault's reply: its body or a { message }, with Retry-After when asked for. */
function faultReply(fault) {
	const message =
		fault.status === 429 ? 'Too many requests: rate limit exceeded' : (http.STATUS_CODES[fault.status] ?? 'Error');
	return {
		status: fault.status,
		headers: {
			...(fault.retryAfter !== undefined ? { 'Retry-After': String(fault.retryAfter) } : {}),
			...(fault.location !== undefined ? { Location: fault.location } : {}),
		},
		body: fault.body ?? { message },
	};
}

/** A reply without a body (logout) is sent with no content at all. */
function send(res, { status = 200, headers = {}, body }) {
	if (res.destroyed || res.headersSent) return;
	const payload = body === undefined ? '' : JSON.stringify(body);
	res.writeHead(status, {
		...(body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
		'Content-Length': Buffer.byteLength(payload),
		...headers,
	});
	res.end(payload);
}

/**
 * @param state    the sandbox state (clock, requests, faults)
 * @param dispatch the API: request -> reply
 * @param admin    the admin door: request -> reply
 */
function createHttpServer({ state, dispatch, admin }) {
	const timers = new Set();
	const sleep = (ms) =>
		new Promise((resolve) => {
			const timer = setTimeout(() => {
				timers.delete(timer);
				resolve();
			}, ms);
			timers.add(timer);
		});

	async function serveApi(req, res, request) {
		const entry = { method: request.method, path: request.pathname, query: request.query, body: request.body };
		if (request.authorization !== undefined) entry.authorization = request.authorization;
		Object.assign(entry, { status: 0, at: state.clock.now() }); // status is filled in when the reply goes out
		state.requests.push(entry);

		state.inFlight++;
		let serving = true; // counted in flight while served; a refusal stops counting at once
		state.maxSeenInFlight = Math.max(state.maxSeenInFlight, state.inFlight);
		try {
			const load = { ...state.load }; // as it was when the request came in
			const now = performance.now();
			while (state.accepted.length && state.accepted[0] <= now - 1000 * load.windowS) state.accepted.shift();
			if (
				(load.maxInFlight > 0 && state.inFlight > load.maxInFlight) ||
				(load.maxPerSecond > 0 && state.accepted.length >= load.maxPerSecond)
			) {
				// Refused at once, before any work: a refused write is not applied.
				state.rateLimited++;
				entry.status = 429;
				// A gateway may take as long to refuse as to answer: the 429 then comes back with the answers sent beside it.
				// Refusing slowly, it also counts the refused request as in flight meanwhile.
				if (load.slowRefusals) await sleep(load.latencyMs);
				state.inFlight--;
				serving = false;
				if (load.refusalLatencyMs > 0) await sleep(load.refusalLatencyMs);
				send(res, faultReply({ status: 429, retryAfter: load.retryAfterS }));
				return;
			}
			if (load.maxPerSecond > 0) state.accepted.push(now);
			// Real services do not answer in a constant time: answers then come back out of the order they were sent in.
			const wait = load.latencyMs + (load.latencyJitterMs > 0 ? state.rng.next() * load.latencyJitterMs : 0);
			if (wait > 0) await sleep(wait);
			if (state.load.cutAnswersPercent > 0 && state.rng.next() * 100 < state.load.cutAnswersPercent) {
				// Served, then the connection is cut before the answer: the client cannot tell whether it was applied.
				const reply = await settle(() => dispatch(request));
				entry.status = reply.status ?? 200;
				entry.cut = true;
				req.socket.destroy();
				return;
			}
			await serveWithFaults(req, res, request, entry);
		} finally {
			if (serving) state.inFlight--;
			entry.doneAt = state.clock.now();
		}
	}

	async function serveWithFaults(req, res, request, entry) {
		const fault = state.faults.take(request.method, request.pathname);
		if (fault?.expireTokens) state.tokens.expireAll(); // this very request then meets an expired token
		if (fault?.delayMs) await sleep(fault.delayMs);
		if (fault?.destroy) {
			req.socket.destroy(); // the client sees a dropped connection; status stays 0 in the log
			return;
		}
		if (fault?.endless) {
			// A body as fast as the client reads it, never ending: only a limit on its size stops it.
			entry.status = 200;
			res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
			res.write('{"message":"');
			const chunk = Buffer.alloc(64 * 1024, 'a');
			const pour = () => {
				while (!res.destroyed && res.write(chunk));
			};
			res.on('drain', pour);
			pour();
			return;
		}
		if (fault?.trickleMs) {
			// Headers at once, then a byte of body now and then, never the end: only a limit on the whole answer stops it.
			entry.status = 200;
			res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
			res.write('{"message":"');
			while (!res.destroyed) {
				await sleep(fault.trickleMs);
				if (!res.destroyed) res.write('.');
			}
			return;
		}
		if (fault?.rawBody !== undefined) {
			// Text as-is (a proxy's HTML page, a 200 that is not JSON); with truncate, cut short mid-body.
			const payload = Buffer.from(fault.rawBody, 'utf8');
			entry.status = fault.status ?? 200;
			res.writeHead(entry.status, {
				'Content-Type': fault.contentType ?? 'text/html',
				'Content-Length': payload.length,
			});
			if (fault.truncate) {
				res.write(payload.subarray(0, Math.floor(payload.length / 2)));
				setImmediate(() => req.socket.destroy());
			} else {
				res.end(payload);
			}
			return;
		}
		if (fault?.truncate) {
			// The real answer, announced in full and cut off halfway.
			const reply = await settle(() => dispatch(request));
			const payload = Buffer.from(JSON.stringify(reply.body ?? {}), 'utf8');
			entry.status = reply.status ?? 200;
			res.writeHead(entry.status, {
				'Content-Type': 'application/json; charset=utf-8',
				'Content-Length': payload.length,
			});
			res.write(payload.subarray(0, Math.floor(payload.length / 2)));
			setImmediate(() => req.socket.destroy());
			return;
		}
		// A service that ignores the scroll id or offset: the last answer to this path again, the scroll not moved.
		const repeated = fault?.again;
		const reply = repeated ?? (fault?.status !== undefined ? faultReply(fault) : await settle(() => dispatch(request)));
		if (!repeated) state.faults.remember(request.method, request.pathname, reply);
		entry.status = reply.status ?? 200;
		send(res, reply);
		if (fault?.expireTokensAfter) state.tokens.expireAll(); // answered; the requests after it meet an expired token
	}

	const server = http.createServer(async (req, res) => {
		try {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			const { body, bodyError } = parseBody(await readBody(req));
			const request = {
				method: req.method ?? 'GET',
				pathname: url.pathname,
				query: Object.fromEntries(url.searchParams),
				body,
				bodyError,
				authorization: req.headers.authorization,
			};
			if (url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`)) {
				send(res, await settle(() => admin(request))); // not logged, never faulted
			} else {
				await serveApi(req, res, request);
			}
		} catch (error) {
			send(res, errorReply(error));
		}
	});

	function listen(port) {
		return new Promise((resolve, reject) => {
			server.once('error', reject);
			server.listen(port, '127.0.0.1', () => {
				server.off('error', reject);
				resolve(server.address().port);
			});
		});
	}

	/** Stops pending fault delays and drops keep-alive connections, so close() never hangs. */
	function close() {
		for (const timer of timers) clearTimeout(timer);
		timers.clear();
		return new Promise((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	}

	return { server, listen, close };
}

module.exports = { createHttpServer };
