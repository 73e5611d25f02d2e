'use strict';
// Locations (venues): list, read, create, update, delete.

const { conflict, listParam, requireBodyObject, stringField, boolField, countryField } = require('../lib/params');
const { isValidTimeZone } = require('../lib/time');
const { CITIES, LOCATION_CATEGORIES } = require('../data/catalog');
const { publicLocation } = require('../data/seed');
const { generated, requireOrganization, requireLocation } = require('./common');

const ADDRESS_FIELDS = ['address', 'city', 'state', 'zip', 'country'];
const ZONE_NAME_RE = /^[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+$/;

function timezoneField(body, required) {
	const zone = stringField(body, 'timezone', { required });
	if (zone !== undefined && !(ZONE_NAME_RE.test(zone) && isValidTimeZone(zone))) {
		throw conflict(`Invalid parameter timezone: '${zone}' is not a zone name in Area/City form such as Europe/Rome`);
	}
	return zone;
}

function categoryField(body) {
	const category = stringField(body, 'categoryName');
	if (category !== undefined && !LOCATION_CATEGORIES.includes(category)) {
		throw conflict(`Invalid parameter categoryName: must be one of ${LOCATION_CATEGORIES.join(', ')}`);
	}
	return category;
}

function tagsField(body) {
	const tags = body.tags;
	if (tags === undefined || tags === null) return undefined;
	if (!Array.isArray(tags) || tags.some((tag) => typeof tag !== 'string' || !tag.trim())) {
		throw conflict('Invalid parameter tags: must be an array of non-empty strings');
	}
	return [...new Set(tags.map((tag) => tag.trim()))];
}

/** Body fields in the spec's order, so the first missing one is the one reported. Create requires the first ten. */
function locationFields(body, { creating }) {
	const required = creating;
	const fields = {
		name: stringField(body, 'name', { required }),
		...(creating && { loginProfileId: stringField(body, 'loginProfileId', { required }) }),
		timezone: timezoneField(body, required),
		...(creating && {
			locationProfileId: stringField(body, 'locationProfileId', { required }),
			welcomePortalId: stringField(body, 'welcomePortalId', { required }),
		}),
		country: countryField(body, 'country', { required }),
		address: stringField(body, 'address', { required }),
		city: stringField(body, 'city', { required }),
		state: stringField(body, 'state', { required }),
		zip: stringField(body, 'zip', { required }),
		description: stringField(body, 'description'),
		externalId: stringField(body, 'externalId'),
		categoryName: categoryField(body),
		tags: tagsField(body),
	};
	if (creating) {
		Object.assign(fields, { onNet: boolField(body, 'onNet'), enabled: boolField(body, 'enabled'), organizationPlanId: stringField(body, 'organizationPlanId') });
	}
	return fields;
}

const knownTags = (state, organizationId) =>
	new Set(state.data.locations.filter((l) => l.organziationId === organizationId).flatMap((l) => l.tags));

const saved = (state, location, tags, known) => ({
	body: { generated: generated(state), status: 'ok', locationId: location.id, newTags: (tags ?? []).filter((t) => !known.has(t)) },
});

function list({ state, params, query }) {
	requireOrganization(state, params.organizationId);
	const tags = listParam(query, 'tags');
	const locations = state.data.locations
		.filter((l) => l.organziationId === params.organizationId && (!tags || l.tags.some((t) => tags.includes(t))))
		.map(publicLocation);
	return { body: { generated: generated(state), size: locations.length, locations } };
}

function get({ state, params }) {
	return { body: { generated: generated(state), size: 1, location: publicLocation(requireLocation(state, params.locationId)) } };
}

/** Coordinates come from the demo city table when the city is known (the sandbox does not geocode). */
function create({ state, params, body }) {
	requireOrganization(state, params.organizationId);
	requireBodyObject(body);
	const f = locationFields(body, { creating: true });
	const known = knownTags(state, params.organizationId);
	const city = CITIES.find((c) => c.city.toLowerCase() === f.city.toLowerCase());
	const location = {
		id: state.rng.hex(24),
		name: f.name,
		organziationId: params.organizationId,
		lat: city?.lat ?? null,
		lng: city?.lng ?? null,
		timezone: f.timezone,
		address: { address: f.address, city: f.city, state: f.state, zip: f.zip, country: f.country },
		externalId: f.externalId ?? null,
		tags: f.tags ?? [],
		description: f.description ?? '',
		categoryName: f.categoryName ?? 'other',
		loginProfileId: f.loginProfileId,
		locationProfileId: f.locationProfileId,
		welcomePortalId: f.welcomePortalId,
		enabled: f.enabled ?? true,
		onNet: f.onNet ?? false,
		organizationPlanId: f.organizationPlanId ?? null,
	};
	state.data.locations.push(location);
	return saved(state, location, f.tags, known);
}

function update({ state, params, body }) {
	requireOrganization(state, params.organizationId);
	const location = requireLocation(state, params.locationId, params.organizationId);
	requireBodyObject(body);
	const f = locationFields(body, { creating: false });
	const known = knownTags(state, params.organizationId);
	for (const [field, value] of Object.entries(f)) {
		if (value === undefined) continue;
		if (ADDRESS_FIELDS.includes(field)) location.address[field] = value;
		else location[field] = value;
	}
	return saved(state, location, f.tags, known);
}

function remove({ state, params }) {
	requireOrganization(state, params.organizationId);
	const location = requireLocation(state, params.locationId, params.organizationId);
	state.data.locations.splice(state.data.locations.indexOf(location), 1);
	return { body: { generated: generated(state), status: 'ok' } };
}

module.exports = { list, get, create, update, remove };
