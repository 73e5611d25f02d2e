'use strict';
// The demo organization: locations, hotspots, segments, contacts, WiFi connections and events.

const { hash32, Rng } = require('../lib/random');
const { DAY_MS, isoUtc, toLocalIso } = require('../lib/time');
const { ContactStore } = require('./contacts');
const { EVENT_KINDS, buildEvent } = require('./events');
const C = require('./catalog');

// Each collection draws from its own stream: changing one count leaves the others unchanged.
const STREAM = { locations: 11, hotspots: 12, segments: 13, connections: 14, events: 15, runtime: 16 };
const HISTORY_MS = 30 * DAY_MS;

const jitter = (rng, value, spread) => Math.round((value + (rng.next() - 0.5) * spread) * 1e6) / 1e6;
const suffix = (round) => (round ? ` ${round + 1}` : '');

function seedLocations(rng, count, organizationId) {
	return Array.from({ length: count }, (_, i) => {
		const city = C.CITIES[i % C.CITIES.length];
		const round = Math.floor(i / C.CITIES.length);
		const tags = [...new Set([rng.pick(C.LOCATION_TAGS), rng.pick(C.LOCATION_TAGS)])];
		return {
			id: rng.hex(24),
			name: `${city.city} ${rng.pick(C.VENUE_KINDS)}${suffix(round)}`,
			organziationId: organizationId, // spelled as the spec spells it
			lat: jitter(rng, city.lat, 0.02),
			lng: jitter(rng, city.lng, 0.02),
			timezone: city.timezone,
			address: { address: `${city.street} ${rng.int(1, 120)}`, city: city.city, state: city.state, zip: city.zip, country: city.country },
			externalId: `LOC-${String(i + 1).padStart(3, '0')}`,
			tags,
			// Create-body fields the Location shape does not return:
			description: `Demo venue in ${city.city}`,
			categoryName: rng.pick(['clothing', 'coffee', 'restaurants', 'hotels', 'footwear']),
			loginProfileId: 'lp-default',
			locationProfileId: 'lpr-default',
			welcomePortalId: 'wp-default',
			enabled: true,
			onNet: false,
		};
	});
}

const macAddress = (rng) => rng.hex(12).toUpperCase().match(/../g).join(':');

function seedHotspots(rng, count, locations, organizationId, baseTime) {
	if (!locations.length) return [];
	return Array.from({ length: count }, (_, i) => {
		const location = locations[i % locations.length];
		const router = rng.pick(C.ROUTERS);
		const mac = macAddress(rng);
		return {
			id: rng.hex(24),
			name: `${location.name} AP ${Math.floor(i / locations.length) + 1}`,
			description: `Access point at ${location.name}`,
			firmware: router.firmware,
			vendor: router.vendor,
			hotspotIdentifier: `${router.routerType}-${mac.replace(/:/g, '').toLowerCase()}`,
			date: isoUtc(baseTime - rng.int(30, 700) * DAY_MS - rng.int(0, DAY_MS)),
			macAddress: mac,
			venueId: location.id,
			country: location.address.country,
			city: location.address.city,
			address: location.address.address,
			latitude: jitter(rng, location.lat, 0.001),
			longitude: jitter(rng, location.lng, 0.001),
			deleted: false,
			// Create-body fields the Hotspot shape does not return:
			organizationId,
			routerType: router.routerType,
			ssid: 'Guest WiFi',
			state: location.address.state,
			zip: location.address.zip,
			enabled: true,
		};
	});
}

function seedSegments(rng, count, baseTime) {
	return Array.from({ length: count }, (_, i) => {
		const createdMs = baseTime - rng.int(60, 400) * DAY_MS;
		return {
			id: rng.hex(24),
			name: `${C.SEGMENT_NAMES[i % C.SEGMENT_NAMES.length]}${suffix(Math.floor(i / C.SEGMENT_NAMES.length))}`,
			description: `Demo segment #${i + 1}`,
			lastRun: isoUtc(baseTime - rng.int(0, 2 * DAY_MS)),
			created: isoUtc(createdMs),
			modified: isoUtc(createdMs + rng.int(0, 50) * DAY_MS),
			segmentStatus: i === 2 ? 'running' : 'completed',
			audience: 0, // counted from the contacts below
		};
	});
}

/** Audience = members at the last run; cheap because membership has its own random stream. */
function countAudiences(segments, contacts) {
	const counts = new Map(segments.map((s) => [s.id, 0]));
	for (let index = 0; index < contacts.count; index++) {
		for (const { id } of contacts.segmentsOf(index)) counts.set(id, counts.get(id) + 1);
	}
	for (const segment of segments) segment.audience = counts.get(segment.id);
}

/** Organization-level connection records (the contact-level list is derived from them). */
function seedConnections(rng, count, { contacts, hotspots, locations, organizationId, baseTime }) {
	if (!contacts.count || !hotspots.length) return [];
	const locationById = new Map(locations.map((l) => [l.id, l]));
	const connections = Array.from({ length: count }, () => {
		const index = rng.skewedIndex(contacts.count);
		const hotspot = rng.pick(hotspots);
		const location = locationById.get(hotspot.venueId);
		const duration = Math.floor(60 + rng.next() ** 2 * 14_340); // seconds, mostly short sessions
		const startMs = baseTime - duration * 1000 - Math.floor(rng.next() * HISTORY_MS);
		const stopMs = startMs + duration * 1000;
		return {
			customerId: contacts.cidOf(index),
			organizationId,
			start: isoUtc(startMs),
			startBusiness: toLocalIso(startMs, location.timezone),
			stop: isoUtc(stopMs),
			stopBusiness: toLocalIso(stopMs, location.timezone),
			duration,
			traffic: duration * rng.int(2_000, 150_000), // bytes
			locationName: location.name,
			locationId: location.id,
			hotspotName: hotspot.name,
			hotspotIdentifier: hotspot.hotspotIdentifier,
			hotspotId: hotspot.id,
			latitude: hotspot.latitude,
			longitude: hotspot.longitude,
			macAddressClient: rng.pick(contacts.devicesOf(index)),
			ipAddressClient: `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(2, 254)}`,
			terminateCause: rng.weighted([['User-Request', 40], ['Idle-Timeout', 30], ['Session-Timeout', 20], ['Lost-Carrier', 10]]),
		};
	});
	return connections.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

const EVENT_WEIGHTS = [
	['login', 25], ['visit', 20], ['signup', 8], ['arriving', 5], ['promo', 6], ['survey', 4], ['send_email', 8],
	['open_email', 6], ['click_email', 3], ['send_sms', 5], ['click_sms', 2], ['geo_visit', 5], ['geo_arriving', 3],
];

/** A contact able to receive the campaign (an email for *_email, a phone for *_sms), favouring the first ones. */
function pickContact(rng, contacts, type) {
	const needs = type.endsWith('_email') ? 'email' : type.endsWith('_sms') ? 'phone' : null;
	let contact = contacts.peek(rng.skewedIndex(contacts.count));
	for (let tries = 0; needs && !contact[needs] && tries < 20; tries++) contact = contacts.peek(rng.skewedIndex(contacts.count));
	return contact;
}

function seedEvents(rng, count, { contacts, hotspots, locations, organizationId, baseTime }) {
	if (!contacts.count || !locations.length) return [];
	return Array.from({ length: count }, (_, i) => {
		// The first events cycle through every kind, so even small seeds contain all of them.
		const type = i < EVENT_KINDS.length ? EVENT_KINDS[i] : rng.weighted(EVENT_WEIGHTS);
		const location = rng.pick(locations);
		const atLocation = hotspots.filter((h) => h.venueId === location.id);
		return buildEvent({
			rng,
			type,
			organizationId,
			contact: pickContact(rng, contacts, type),
			location,
			hotspot: atLocation.length ? rng.pick(atLocation) : undefined,
			createdAtMs: baseTime - 1 - Math.floor(rng.next() * HISTORY_MS),
		});
	});
}

/** Builds the whole demo store; the same seed and base time always give the same data. */
function seedData({ seed, organizationId, baseTime, counts }) {
	const stream = (id) => new Rng(hash32(seed, id));
	const locations = seedLocations(stream(STREAM.locations), counts.locations, organizationId);
	const hotspots = seedHotspots(stream(STREAM.hotspots), counts.hotspots, locations, organizationId, baseTime);
	const segments = seedSegments(stream(STREAM.segments), counts.segments, baseTime);
	const contacts = new ContactStore({ seed, count: counts.contacts, baseTime, organizationId, locations, segments });
	countAudiences(segments, contacts);
	const context = { contacts, hotspots, locations, organizationId, baseTime };
	const connections = seedConnections(stream(STREAM.connections), counts.connections, context);
	const events = seedEvents(stream(STREAM.events), counts.events, context);
	return { contacts, events, connections, hotspots, locations, segments, rng: stream(STREAM.runtime) };
}

const LOCATION_FIELDS = ['id', 'name', 'organziationId', 'lat', 'lng', 'timezone', 'address', 'externalId', 'tags'];
const HOTSPOT_FIELDS = [
	'id', 'name', 'description', 'firmware', 'vendor', 'hotspotIdentifier', 'date', 'macAddress', 'venueId',
	'country', 'city', 'address', 'latitude', 'longitude', 'deleted',
];
const pick = (record, fields) => Object.fromEntries(fields.map((f) => [f, record[f] ?? null]));

/** The API shows the spec's fields only; the store also keeps the create-body extras. */
const publicLocation = (location) => pick(location, LOCATION_FIELDS);
const publicHotspot = (hotspot) => pick(hotspot, HOTSPOT_FIELDS);

module.exports = { seedData, publicLocation, publicHotspot };
