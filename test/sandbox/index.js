'use strict';
/**
 * A local stand-in for the Cloud4Wi REST API, for tests, benchmarks and demos.
 * See index.d.ts for the full API; cli.js starts one from the command line.
 */

const { createClock } = require('./lib/time');
const { TokenStore } = require('./lib/tokens');
const { ScrollStore } = require('./lib/scrolls');
const { FaultList } = require('./lib/faults');
const { createHttpServer } = require('./lib/server');
const { seedData } = require('./data/seed');
const { arrayView } = require('./data/contacts');
const { injectEvents } = require('./data/events');
const { createApi } = require('./api/routes');
const { createAdmin } = require('./api/admin');

const DEFAULTS = Object.freeze({
	port: 0,
	contacts: 300,
	events: 500,
	connections: 400,
	hotspots: 25,
	locations: 12,
	segments: 6,
	tokenTtlMs: 86_400_000,
	expiredStatus: 403,
	scrollTtlMs: 120_000,
	seed: 1,
	clientKey: 'demo-key',
	clientSecret: 'demo-secret-7f3a9c2e51',
	organizationId: '5f0c4a7e2b9d13e8a6c7b1f0',
	latencyMs: 0,
	latencyJitterMs: 0,
	maxInFlight: 0,
	maxPerSecond: 0,
	windowS: 1,
	retryAfterS: 1,
	refusalLatencyMs: 0,
	slowRefusals: false,
	cutAnswersPercent: 0,
});

const COUNT_OPTIONS = ['port', 'contacts', 'events', 'connections', 'hotspots', 'locations', 'segments'];

function checkExpiredStatus(status) {
	if (status !== 401 && status !== 403)
		throw new Error(`expiredStatus must be 401 or 403, got ${JSON.stringify(status)}`);
	return status;
}

/** Defaults for what is missing; a clear error for what is wrong. */
function resolveOptions(options) {
	const given = Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined));
	const config = { ...DEFAULTS, now: Date.now(), ...given };
	for (const name of COUNT_OPTIONS) {
		if (!Number.isInteger(config[name]) || config[name] < 0) throw new Error(`${name} must be an integer >= 0`);
	}
	for (const name of ['tokenTtlMs', 'scrollTtlMs', 'now', 'seed']) {
		if (typeof config[name] !== 'number' || !Number.isFinite(config[name])) throw new Error(`${name} must be a number`);
	}
	checkExpiredStatus(config.expiredStatus);
	checkLoad(config);
	return config;
}

/**
 * latencyMs, latencyJitterMs, maxInFlight and maxPerSecond (0 = none), retryAfterS and refusalLatencyMs: whole numbers
 * >= 0; windowS a whole number >= 1; cutAnswersPercent from 0 to 100; slowRefusals true or false.
 */
function checkLoad(load) {
	if (load.slowRefusals !== undefined && typeof load.slowRefusals !== 'boolean') {
		throw new Error('slowRefusals must be true or false');
	}
	const cut = load.cutAnswersPercent;
	if (cut !== undefined && (!Number.isInteger(cut) || cut < 0 || cut > 100)) {
		throw new Error('cutAnswersPercent must be an integer from 0 to 100');
	}
	if (load.windowS !== undefined && (!Number.isInteger(load.windowS) || load.windowS < 1)) {
		throw new Error('windowS must be an integer >= 1');
	}
	for (const name of [
		'latencyMs',
		'latencyJitterMs',
		'maxInFlight',
		'maxPerSecond',
		'retryAfterS',
		'refusalLatencyMs',
	]) {
		if (load[name] !== undefined && (!Number.isInteger(load[name]) || load[name] < 0)) {
			throw new Error(`${name} must be an integer >= 0`);
		}
	}
	return load;
}

async function createSandbox(options = {}) {
	const config = resolveOptions(options);
	const clock = createClock(config.now);
	const { organizationId, clientKey, clientSecret } = config;
	const { contacts, rng, ...collections } = seedData({
		seed: config.seed,
		organizationId,
		baseTime: config.now, // the given start time exactly: clock.now() may already be a millisecond later
		counts: config,
	});

	const state = {
		clock,
		organizationId,
		credentials: { clientKey, clientSecret, organizationId },
		contacts, // the raw store; data.contacts is its array-like view for tests
		rng, // runtime randomness (new ids, OTPs, injected events), also seeded
		data: { contacts: arrayView(contacts), ...collections },
		tokens: new TokenStore({ clock, ttlMs: config.tokenTtlMs }),
		scrolls: new ScrollStore({ clock, ttlMs: config.scrollTtlMs }),
		faults: new FaultList(),
		requests: [],
		logins: 0,
		expiredStatus: config.expiredStatus,
		// Load: every API answer waits latencyMs, plus up to latencyJitterMs more at random; above maxInFlight requests
		// being served, or maxPerSecond requests accepted in the last windowS seconds, a 429 (at once, or after
		// refusalLatencyMs; with slowRefusals as long as an answer, held in flight meanwhile). cutAnswersPercent of the requests served
		// (seeded) lose their connection before the answer: the work is done, the client never hears of it.
		load: {
			slowRefusals: config.slowRefusals,
			cutAnswersPercent: config.cutAnswersPercent,
			latencyMs: config.latencyMs,
			latencyJitterMs: config.latencyJitterMs,
			maxInFlight: config.maxInFlight,
			maxPerSecond: config.maxPerSecond,
			windowS: config.windowS,
			retryAfterS: config.retryAfterS,
			refusalLatencyMs: config.refusalLatencyMs,
		},
		inFlight: 0,
		/** When the requests accepted in the last window arrived (performance.now()), oldest first. */
		accepted: [],
		maxSeenInFlight: 0,
		rateLimited: 0,
	};

	const sandbox = {
		url: '',
		credentials: { ...state.credentials },
		organizationId,
		clock,
		requests: state.requests,
		data: state.data,
		get logins() {
			return state.logins;
		},
		get rateLimited() {
			return state.rateLimited;
		},
		get maxSeenInFlight() {
			return state.maxSeenInFlight;
		},
		setLoad(load) {
			Object.assign(state.load, checkLoad({ ...load }));
			return { ...state.load };
		},
		clearRequests() {
			state.requests.length = 0; // in place, so a held reference stays current
			state.maxSeenInFlight = state.inFlight;
			state.rateLimited = 0;
		},
		expireTokens: () => state.tokens.expireAll(),
		setExpiredStatus(status) {
			state.expiredStatus = checkExpiredStatus(status);
		},
		addFault(fault) {
			state.faults.add(fault);
		},
		clearFaults() {
			state.faults.clear();
		},
		injectEvents: (specs) =>
			injectEvents(
				{
					rng,
					clock,
					organizationId,
					contacts,
					locations: state.data.locations,
					hotspots: state.data.hotspots,
					events: state.data.events,
				},
				specs,
			),
		close: () => server.close(),
	};

	const server = createHttpServer({ state, dispatch: createApi(state), admin: createAdmin(sandbox, state) });
	const port = await server.listen(config.port);
	sandbox.url = `http://127.0.0.1:${port}`;
	return sandbox;
}

module.exports = { createSandbox, DEFAULTS };
