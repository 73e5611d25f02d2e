'use strict';
// The endpoints of the spec in one table, plus routing and the bearer-token check.

const { HttpError, conflict, notFound } = require('../lib/params');
const auth = require('./auth');
const contacts = require('./contacts');
const events = require('./events');
const connections = require('./connections');
const segments = require('./segments');
const hotspots = require('./hotspots');
const locations = require('./locations');

const ROUTES = [
	// Token
	['POST', '/v1/sts/login/services', auth.login, { public: true }],
	['POST', '/v1/sts/logout', auth.logout, { public: true }], // checks the token itself and answers 401
	// Contacts
	['GET', '/v2/customers/organizations/:organizationId', contacts.list],
	['GET', '/v2/customers/:contactId', contacts.get],
	['DELETE', '/v1/customers/:contactId', contacts.remove],
	['PUT', '/v1/customers/:contactId/policies', contacts.updateOptIns],
	['POST', '/v2/customers/:contactId/otp', contacts.createAccessCode],
	['GET', '/v2/customers/:contactId/accountings', connections.listForContact],
	['GET', '/v2/customers/:contactId/activities', contacts.activities],
	['GET', '/v2/customers/:contactId/devices', contacts.devices],
	['GET', '/v2/customers/:contactId/events', contacts.locationEvents],
	// Events
	['GET', '/v1/organizations/:organizationId/events', events.listForOrganization],
	['GET', '/v1/organizations/:organizationId/customers/:contactId/events', events.listForContact],
	// Organization WiFi connections and segments
	['GET', '/v2/organizations/:organizationId/accountings', connections.listForOrganization],
	['GET', '/v2/segments/organizations/:organizationId', segments.list],
	// Hotspots
	['POST', '/v3/hotspots', hotspots.create],
	['GET', '/v3/hotspots/organizations/:organizationId', hotspots.list],
	['GET', '/v3/hotspots/identifier/:hotspotIdentifier', hotspots.getByIdentifier],
	['GET', '/v3/hotspots/:hotspotId', hotspots.get],
	['PUT', '/v3/hotspots/:hotspotId', hotspots.update],
	['DELETE', '/v3/hotspots/:hotspotId', hotspots.remove],
	// Locations
	['GET', '/v1/organizations/:organizationId/locations', locations.list],
	['POST', '/v1/organizations/:organizationId/locations', locations.create],
	['PUT', '/v1/organizations/:organizationId/locations/:locationId', locations.update],
	['DELETE', '/v1/organizations/:organizationId/locations/:locationId', locations.remove],
	['GET', '/v1/locations/:locationId', locations.get],
].map(([method, path, handler, options = {}]) => ({
	method,
	path,
	handler,
	public: Boolean(options.public),
	pattern: new RegExp(`^${path.replace(/:(\w+)/g, '(?<$1>[^/]+)')}/?$`),
}));

const bearerToken = (header) => /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];

function decodeParams(groups = {}) {
	try {
		return Object.fromEntries(Object.entries(groups).map(([name, value]) => [name, decodeURIComponent(value)]));
	} catch {
		throw notFound('Malformed path parameter');
	}
}

/** Returns dispatch(request) -> { status?, headers?, body } or throws HttpError. */
function createApi(state) {
	return function dispatch({ method, pathname, query, body, bodyError, authorization }) {
		const onPath = ROUTES.filter((r) => r.pattern.test(pathname));
		const route = onPath.find((r) => r.method === method);
		if (!route) {
			if (!onPath.length) throw notFound(`No such endpoint: ${method} ${pathname}`);
			const allowed = [...new Set(onPath.map((r) => r.method))].join(', ');
			throw new HttpError(405, `Method ${method} is not allowed on ${pathname} (allowed: ${allowed})`, { Allow: allowed });
		}
		const token = bearerToken(authorization);
		if (!route.public) {
			if (!token) throw new HttpError(state.expiredStatus, 'Missing bearer token: send Authorization: Bearer <token>');
			if (!state.tokens.isValid(token)) throw new HttpError(state.expiredStatus, 'Token is invalid or expired');
		}
		if (bodyError) throw conflict('Invalid request body: not valid JSON');
		const params = decodeParams(route.pattern.exec(pathname).groups);
		return route.handler({ state, params, query, body, token });
	};
}

module.exports = { createApi, ROUTES };
