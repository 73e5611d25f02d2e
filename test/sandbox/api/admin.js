'use strict';
// The admin door (/__admin/*): the sandbox's test controls over HTTP, for runs in another process.

const { HttpError } = require('../lib/params');
const { parseIso } = require('../lib/time');
const { eventTiming } = require('../data/events');

/** Counts for dashboards and assertions. */
function describeState(state) {
	const now = state.clock.now();
	const { data } = state;
	return {
		now,
		nowIso: new Date(now).toISOString(),
		organizationId: state.organizationId,
		logins: state.logins,
		activeTokens: state.tokens.activeCount,
		expiredStatus: state.expiredStatus,
		faults: state.faults.size,
		requests: state.requests.length,
		scrolls: state.scrolls.size,
		counts: {
			contacts: data.contacts.length,
			events: data.events.length,
			visibleEvents: data.events.filter((e) => eventTiming(e).visibleAt <= now).length,
			connections: data.connections.length,
			hotspots: data.hotspots.filter((h) => !h.deleted).length,
			locations: data.locations.length,
			segments: data.segments.length,
		},
	};
}

const asList = (body) => (Array.isArray(body) ? body : [body]);

function setClock(clock, body) {
	if (body?.set !== undefined) {
		const ms = typeof body.set === 'number' ? body.set : parseIso(String(body.set))?.ms;
		if (ms === undefined || !Number.isFinite(ms))
			throw new Error('clock.set must be ms since epoch or an ISO 8601 string');
		clock.set(ms);
	} else if (typeof body?.advance === 'number') {
		clock.advance(body.advance);
	} else {
		throw new Error('Send { "set": ms | ISO string } or { "advance": ms }');
	}
	return clockBody(clock);
}

const clockBody = (clock) => ({ now: clock.now(), iso: new Date(clock.now()).toISOString() });
const ok = (extra = {}) => ({ body: { status: 'ok', ...extra } });

function createAdmin(sandbox, state) {
	const routes = {
		'GET /__admin/requests': () => ({ body: { count: state.requests.length, requests: state.requests } }),
		'DELETE /__admin/requests': () => (sandbox.clearRequests(), ok()),
		'POST /__admin/events': ({ body }) => {
			const events = sandbox.injectEvents(asList(body));
			return { body: { count: events.length, events } };
		},
		'POST /__admin/faults': ({ body }) => {
			asList(body).forEach((fault) => sandbox.addFault(fault));
			return ok({ faults: state.faults.size });
		},
		'DELETE /__admin/faults': () => (sandbox.clearFaults(), ok()),
		'POST /__admin/tokens/expire': () => ok({ expired: sandbox.expireTokens() }),
		'POST /__admin/expired-status': ({ body }) => (
			sandbox.setExpiredStatus(body?.status),
			ok({ expiredStatus: state.expiredStatus })
		),
		'GET /__admin/clock': () => ({ body: clockBody(state.clock) }),
		'POST /__admin/clock': ({ body }) => ({ body: setClock(state.clock, body) }),
		'GET /__admin/state': () => ({ body: describeState(state) }),
		'GET /__admin/load': () => ({
			body: { ...state.load, rateLimited: state.rateLimited, maxSeenInFlight: state.maxSeenInFlight },
		}),
		'POST /__admin/load': ({ body }) => ({ body: sandbox.setLoad(body ?? {}) }),
	};

	return function admin(request) {
		const handler = routes[`${request.method} ${request.pathname.replace(/\/+$/, '')}`];
		if (!handler) throw new HttpError(404, `No such admin endpoint: ${request.method} ${request.pathname}`);
		if (request.bodyError) throw new HttpError(400, 'Invalid request body: not valid JSON');
		try {
			return handler(request);
		} catch (error) {
			throw error instanceof HttpError ? error : new HttpError(400, error.message); // a bad admin call is the caller's error
		}
	};
}

module.exports = { createAdmin, describeState };
