'use strict';
// Errors and input checks shared by every endpoint, so each rule and its message exists once.

const { parseIso, isValidTimeZone } = require('./time');

class HttpError extends Error {
	constructor(status, message, headers = {}) {
		super(message);
		this.status = status;
		this.headers = headers;
	}
}

// The service answers 409 for every semantic error or invalid parameter.
const conflict = (message) => new HttpError(409, message);
const notFound = (message) => new HttpError(404, message);

const isPresent = (value) => value !== undefined && value !== '';

// ---- query parameters (always strings) ----

/** An integer query parameter in [min, max]; undefined when absent. */
function intParam(query, name, { min, max }) {
	const raw = query[name];
	if (!isPresent(raw)) return undefined;
	const value = Number(raw);
	if (!/^\d+$/.test(raw) || value < min || value > max) {
		throw conflict(
			max === Infinity
				? `Invalid parameter ${name}: must be an integer >= ${min}`
				: `Invalid parameter ${name}: must be between ${min} and ${max}`,
		);
	}
	return value;
}

/** 'true' / 'false'; undefined when absent. */
function boolParam(query, name) {
	const raw = query[name];
	if (!isPresent(raw)) return undefined;
	if (raw === 'true') return true;
	if (raw === 'false') return false;
	throw conflict(`Invalid parameter ${name}: must be true or false`);
}

/** A comma-separated list; undefined when absent. */
function listParam(query, name) {
	const raw = query[name];
	if (!isPresent(raw)) return undefined;
	return raw
		.split(',')
		.map((item) => item.trim())
		.filter(Boolean);
}

/** One of a fixed set of values, or the default. */
function enumParam(query, name, allowed, fallback) {
	const raw = query[name];
	if (!isPresent(raw)) return fallback;
	if (!allowed.includes(raw)) throw conflict(`Invalid parameter ${name}: must be one of ${allowed.join(', ')}`);
	return raw;
}

/**
 * An ISO 8601 date or date-time as ms; undefined when absent.
 * `endOfDay` makes a date-only upper bound include that whole day;
 * `requireOffset` rejects date-times without Z or an offset (organization WiFi connections).
 */
function dateParam(query, name, { endOfDay = false, requireOffset = false, zone = 'UTC' } = {}) {
	const raw = query[name];
	if (!isPresent(raw)) return undefined;
	const parsed = parseIso(raw, { endOfDay, zone });
	if (!parsed) throw conflict(`Invalid parameter ${name}: '${raw}' is not an ISO 8601 date or date-time`);
	if (requireOffset && parsed.hasTime && !parsed.hasOffset) {
		throw conflict(`Invalid parameter ${name}: a date-time must include a time zone (Z or +hh:mm)`);
	}
	return parsed.ms;
}

/** A start/end pair of date parameters, rejecting an empty range. */
function dateRangeParams(query, startName, endName, options = {}) {
	const start = dateParam(query, startName, options);
	const end = dateParam(query, endName, { ...options, endOfDay: true });
	if (start !== undefined && end !== undefined && start > end) {
		throw conflict(`Invalid parameters ${startName}/${endName}: ${startName} is after ${endName}`);
	}
	return { start, end };
}

/** A plain 'YYYY-MM-DD' day; undefined when absent. */
function dayParam(query, name) {
	const raw = query[name];
	if (!isPresent(raw)) return undefined;
	if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || !parseIso(raw)) {
		throw conflict(`Invalid parameter ${name}: must be a date in the form YYYY-MM-DD`);
	}
	return raw;
}

function timeZoneParam(query, name) {
	const raw = query[name];
	if (!isPresent(raw)) return undefined;
	if (!isValidTimeZone(raw)) throw conflict(`Invalid parameter ${name}: unknown time zone '${raw}'`);
	return raw;
}

// ---- JSON body fields ----

function requireBodyObject(body) {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) {
		throw conflict('Invalid request body: a JSON object is required');
	}
	return body;
}

function stringField(body, name, { required = false } = {}) {
	const value = body[name];
	if (value === undefined || value === null || value === '') {
		if (required) throw conflict(`Missing parameter ${name}`);
		return undefined;
	}
	if (typeof value !== 'string') throw conflict(`Invalid parameter ${name}: must be a string`);
	return value;
}

function numberField(body, name, { min, max, required = false }) {
	const value = body[name];
	if (value === undefined || value === null) {
		if (required) throw conflict(`Missing parameter ${name}`);
		return undefined;
	}
	if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
		throw conflict(`Invalid parameter ${name}: must be a number between ${min} and ${max}`);
	}
	return value;
}

function boolField(body, name) {
	const value = body[name];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'boolean') throw conflict(`Invalid parameter ${name}: must be true or false`);
	return value;
}

/** ISO 3166-1 alpha-2: two upper-case letters. */
function countryField(body, name, options = {}) {
	const value = stringField(body, name, options);
	if (value !== undefined && !/^[A-Z]{2}$/.test(value)) {
		throw conflict(`Invalid parameter ${name}: must be an ISO 3166-1 alpha-2 code such as IT`);
	}
	return value;
}

module.exports = {
	HttpError,
	conflict,
	notFound,
	intParam,
	boolParam,
	listParam,
	enumParam,
	dateParam,
	dateRangeParams,
	dayParam,
	timeZoneParam,
	requireBodyObject,
	stringField,
	numberField,
	boolField,
	countryField,
};
