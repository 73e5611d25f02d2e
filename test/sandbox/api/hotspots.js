'use strict';
// Hotspots (access points): create, read, update, soft delete, list.

const { conflict, notFound, intParam, boolParam, dayParam, requireBodyObject, stringField, numberField, boolField, countryField } =
	require('../lib/params');
const { ROUTERS } = require('../data/catalog');
const { publicHotspot } = require('../data/seed');
const { generated, requireOrganization, requireLocation } = require('./common');

const MAC_RE = /^[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\1){4}[0-9A-Fa-f]{2}$/;
const NOT_UPDATABLE = ['venueId', 'routerType', 'macAddress', 'hotspotIdentifier', 'ssid'];
const compactMac = (mac) => mac.replace(/[:-]/g, '').toLowerCase();

function findHotspot(state, id) {
	const hotspot = state.data.hotspots.find((h) => h.id === id);
	if (!hotspot) throw notFound(`Hotspot not found: ${id}`);
	return hotspot;
}

function liveHotspot(state, id) {
	const hotspot = findHotspot(state, id);
	if (hotspot.deleted) throw notFound(`Hotspot not found: ${id} (deleted)`);
	return hotspot;
}

/** organizationId, or organziationId as the spec's required list spells it. */
function organizationOf(state, body) {
	const id = stringField(body, 'organizationId') ?? stringField(body, 'organziationId');
	if (id === undefined) throw conflict('Missing parameter organizationId (or organziationId)');
	requireOrganization(state, id);
	return id;
}

/** country/address/city/state/zip from the body, or from the location when addressAsLocation is true. */
function addressOf(body, location, { required }) {
	if (boolField(body, 'addressAsLocation') === true) {
		const { country, address, city, state, zip } = location.address;
		return { country, address, city, state, zip };
	}
	return {
		country: countryField(body, 'country', { required }),
		address: stringField(body, 'address', { required }),
		city: stringField(body, 'city', { required }),
		state: stringField(body, 'state', { required }),
		zip: stringField(body, 'zip', { required }),
	};
}

const coordinates = (body, required) => ({
	latitude: numberField(body, 'latitude', { min: -90, max: 90, required }),
	longitude: numberField(body, 'longitude', { min: -180, max: 180, required }),
});

const saved = (state, hotspot) => ({
	body: { generated: generated(state), status: 'ok', locationId: hotspot.venueId, hotspotId: hotspot.id },
});

function create({ state, body }) {
	requireBodyObject(body);
	const name = stringField(body, 'name', { required: true });
	const routerType = stringField(body, 'routerType', { required: true });
	const { latitude, longitude } = coordinates(body, true);
	const organizationId = organizationOf(state, body);
	const locationId = stringField(body, 'venueId') ?? stringField(body, 'locationId');
	if (locationId === undefined) throw conflict('Missing parameter venueId (or locationId)');
	const location = requireLocation(state, locationId, organizationId);
	const address = addressOf(body, location, { required: true });
	const macAddress = stringField(body, 'macAddress');
	if (macAddress !== undefined && !MAC_RE.test(macAddress)) {
		throw conflict(`Invalid parameter macAddress: '${macAddress}' is not a MAC address such as 00:11:22:33:44:55`);
	}
	const router = ROUTERS.find((r) => r.routerType === routerType);
	const hotspot = {
		id: state.rng.hex(24),
		name,
		description: stringField(body, 'description') ?? '',
		firmware: router?.firmware ?? null,
		vendor: router?.vendor ?? routerType,
		hotspotIdentifier:
			stringField(body, 'hotspotIdentifier') ?? (macAddress ? `${routerType}-${compactMac(macAddress)}` : `hs-${state.rng.hex(12)}`),
		date: generated(state),
		macAddress: macAddress ? compactMac(macAddress).toUpperCase().match(/../g).join(':') : null,
		venueId: location.id,
		country: address.country,
		city: address.city,
		address: address.address,
		latitude,
		longitude,
		deleted: false,
		organizationId,
		routerType,
		ssid: stringField(body, 'ssid') ?? null,
		state: address.state,
		zip: address.zip,
		enabled: true,
	};
	state.data.hotspots.push(hotspot);
	return saved(state, hotspot);
}

function get({ state, params }) {
	return { body: { status: 'ok', generated: generated(state), hotspot: publicHotspot(findHotspot(state, params.hotspotId)) } };
}

/** A live hotspot with that identifier wins over a deleted one. */
function getByIdentifier({ state, params }) {
	const matches = state.data.hotspots.filter((h) => h.hotspotIdentifier === params.hotspotIdentifier);
	const hotspot = matches.find((h) => !h.deleted) ?? matches[0];
	if (!hotspot) throw notFound(`Hotspot not found with identifier: ${params.hotspotIdentifier}`);
	return { body: { status: 'ok', generated: generated(state), hotspot: publicHotspot(hotspot) } };
}

/** Partial update; the fields fixed at creation are refused, organization and location are required. */
function update({ state, params, body }) {
	const hotspot = liveHotspot(state, params.hotspotId);
	requireBodyObject(body);
	const refused = NOT_UPDATABLE.find((field) => body[field] !== undefined);
	if (refused) throw conflict(`Invalid parameter ${refused}: cannot be changed on an existing hotspot`);
	const organizationId = organizationOf(state, body);
	const location = requireLocation(state, stringField(body, 'locationId', { required: true }), organizationId);
	const changes = {
		name: stringField(body, 'name'),
		description: stringField(body, 'description'),
		...coordinates(body, false),
		...addressOf(body, location, { required: false }),
		enabled: boolField(body, 'enabled'),
		venueId: location.id,
	};
	for (const [field, value] of Object.entries(changes)) if (value !== undefined) hotspot[field] = value;
	return saved(state, hotspot);
}

/** Soft delete: the hotspot stays readable by id and listable with deleted=true. */
function remove({ state, params }) {
	liveHotspot(state, params.hotspotId).deleted = true;
	return { body: { generated: generated(state), status: 'ok' } };
}

/** Filters, then limit/offset; count is the number of all matching hotspots. Creation dates are inclusive. */
function list({ state, params, query }) {
	requireOrganization(state, params.organizationId);
	const from = dayParam(query, 'creationDateStart');
	const to = dayParam(query, 'creationDateStop');
	const deleted = boolParam(query, 'deleted') ?? false;
	const limit = intParam(query, 'limit', { min: 1, max: 1000 }) ?? 20;
	const offset = intParam(query, 'offset', { min: 0, max: Infinity }) ?? 0;
	const name = query.name?.toLowerCase();
	const mac = query.macAddress && compactMac(query.macAddress);
	const matching = state.data.hotspots
		.filter((h) => {
			const day = h.date.slice(0, 10);
			return (
				h.organizationId === params.organizationId &&
				h.deleted === deleted &&
				(!from || day >= from) &&
				(!to || day <= to) &&
				(!name || h.name.toLowerCase().includes(name)) &&
				(!mac || (h.macAddress && compactMac(h.macAddress) === mac)) &&
				(!query.hotspotIdentifier || h.hotspotIdentifier === query.hotspotIdentifier) &&
				(!query.venueId || h.venueId === query.venueId)
			);
		})
		.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : 1));
	return {
		body: {
			status: 'ok',
			generated: generated(state),
			count: matching.length,
			hotspots: matching.slice(offset, offset + limit).map(publicHotspot),
		},
	};
}

module.exports = { create, get, getByIdentifier, update, remove, list };
