'use strict';
// Events in the live-data shape of the organization event list, and when each becomes visible.

const { isoUtc, toLocalIso, parseIso } = require('../lib/time');
const C = require('./catalog');

/** The ten kinds the `events` filter accepts. */
const FILTERABLE_KINDS = ['signup', 'visit', 'login', 'promo', 'survey', 'send_email', 'open_email', 'click_email', 'send_sms', 'click_sms'];
const GEO_KINDS = ['geo_visit', 'geo_arriving'];
/** Every kind a list may carry: the ten, plus arriving and the geo kinds. */
const EVENT_KINDS = [...FILTERABLE_KINDS, 'arriving', ...GEO_KINDS];

/** Keys of event{} that carry the kind-specific payload. */
const PAYLOAD_KEYS = ['visit', 'signup', 'promo', 'survey', 'email', 'sms'];

// Kinds that happen at an access point carry its hotspotId; visits and campaign messages do not.
const HOTSPOT_KINDS = new Set(['signup', 'login', 'promo', 'survey', 'arriving']);

// Timing lives beside the events, so the stored objects are exactly what the API returns.
const timing = new WeakMap();

/** { at, visibleAt } of an event; events pushed by hand into data.events fall back to when.createdAt. */
function eventTiming(event) {
	let entry = timing.get(event);
	if (!entry) {
		const at = Date.parse(event?.when?.createdAt);
		entry = { at, visibleAt: at };
		timing.set(event, entry);
	}
	return entry;
}

const isGeo = (type) => GEO_KINDS.includes(type);

/** The kind-specific part of event{}: visit, signup, promo, survey, email or sms. */
function payloadOf(type, { rng, contact, createdAtMs, timezone }) {
	const campaign = () => ({ ...rng.pick(C.CAMPAIGNS), communicationId: `com-${rng.hex(10)}` });
	if (type === 'visit' || isGeo(type)) {
		const duration = type === 'geo_arriving' ? 0 : rng.int(300, 10_800);
		const startMs = createdAtMs - duration * 1000;
		const visit = { startAt: isoUtc(startMs), startAtLocal: toLocalIso(startMs, timezone), timezone, duration };
		if (isGeo(type)) {
			visit.properties = { appId: 'app-demo-01', appBundle: 'com.example.demoapp', projectId: 'prj-demo', appOs: rng.pick(['ios', 'android']) };
		}
		return { visit };
	}
	if (type === 'signup') return { signup: { source: rng.pick(['guest_wifi', 'kiosk', 'api']) } };
	if (type === 'promo') return { promo: { type: rng.pick(['banner', 'video', 'coupon']) } };
	if (type === 'survey') {
		const survey = rng.pick(C.SURVEYS);
		const { campaignId, campaignName } = rng.pick(C.CAMPAIGNS);
		return {
			survey: { campaignId, campaignName, answerId: `ans-${rng.hex(10)}`, questions: { question_1: survey.question }, answers: { answer_1: rng.pick(survey.answers) } },
		};
	}
	if (type.endsWith('_email')) return { email: { ...campaign(), channel: 'email', email: contact.email ?? `${contact.cid}@example.com` } };
	if (type.endsWith('_sms')) {
		const phone = contact.phone ?? '+390000000000';
		const prefix = phone.startsWith('+1') ? '+1' : phone.slice(0, 3);
		return { sms: { ...campaign(), channel: 'sms', phone: phone.slice(prefix.length), prefix } };
	}
	return {}; // login, arriving: type and id only
}

/** `where` of a WiFi event, or the geofence of a geo event (built around the location). */
function whereOf(type, location, hotspot) {
	if (isGeo(type)) {
		return {
			geofenceName: `${location.name} geofence`,
			geofenceExtId: `gf-${location.id.slice(0, 8)}`,
			geofenceId: `geo-${location.id}`,
			geofenceMetadata: [],
			geofenceJSON: { type: 'Point', coordinates: [location.lng ?? 0, location.lat ?? 0], radius: 150 },
		};
	}
	const where = { locationId: location.id, locationName: location.name };
	if (HOTSPOT_KINDS.has(type) && hotspot) where.hotspotId = hotspot.id;
	return where;
}

/**
 * One event in the live-data shape. Ids end in 'g' for geo kinds and 'l' for WiFi kinds;
 * geo events carry no organizationId.
 */
function buildEvent({ rng, type, organizationId, contact, location, hotspot, createdAtMs, visibleAt = createdAtMs }) {
	const timezone = location.timezone;
	const body = {
		customerId: contact.cid,
		event: { type, id: `${rng.hex(24)}${isGeo(type) ? 'g' : 'l'}`, ...payloadOf(type, { rng, contact, createdAtMs, timezone }) },
		where: whereOf(type, location, hotspot),
		when: { createdAt: isoUtc(createdAtMs), createdAtLocal: toLocalIso(createdAtMs, timezone), timezone },
	};
	const event = isGeo(type) ? body : { organizationId, ...body };
	timing.set(event, { at: createdAtMs, visibleAt });
	return event;
}

const isPlainObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Merges `extra` into `target` recursively for plain objects (tests override single nested fields). */
function deepMerge(target, extra) {
	for (const [key, value] of Object.entries(extra)) {
		if (isPlainObject(value) && isPlainObject(target[key])) deepMerge(target[key], value);
		else target[key] = value;
	}
	return target;
}

/** Accepts ms or an ISO string for injected createdAt. */
function toMs(value, fallback) {
	if (value === undefined || value === null) return fallback;
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	const parsed = typeof value === 'string' ? parseIso(value) : null;
	if (!parsed) throw new Error(`createdAt must be ms since epoch or an ISO 8601 string, got ${JSON.stringify(value)}`);
	return parsed.ms;
}

/**
 * Adds events as if they had just happened (or at `createdAt`); `visibleAfterMs` delays
 * when the API shows them, like the real service's indexing lag. Validates all before adding any.
 */
function injectEvents({ rng, clock, organizationId, contacts, locations, hotspots, events }, specs) {
	const list = Array.isArray(specs) ? specs : [specs];
	const built = list.map((spec) => {
		const { type, customerId, createdAt, visibleAfterMs = 0, locationId, ...extra } = spec ?? {};
		if (!EVENT_KINDS.includes(type)) throw new Error(`Unknown event type ${JSON.stringify(type)}; use one of ${EVENT_KINDS.join(', ')}`);
		if (typeof visibleAfterMs !== 'number' || !(visibleAfterMs >= 0)) throw new Error('visibleAfterMs must be a number >= 0');
		const location = locationId === undefined ? rng.pick(locations) : locations.find((l) => l.id === locationId);
		if (!location) throw new Error(locationId === undefined ? 'There is no location to place the event in' : `Unknown locationId ${locationId}`);
		if (customerId === undefined && contacts.count === 0) throw new Error('There is no contact to attach the event to; pass customerId');
		const index = customerId === undefined ? rng.skewedIndex(contacts.count) : contacts.indexOf(customerId);
		// Unknown contact ids are allowed on purpose: events can outlive or precede the contact record.
		const contact = index >= 0 ? contacts.peek(index) : { cid: customerId, email: null, phone: null };
		const createdAtMs = toMs(createdAt, clock.now());
		const hotspot = hotspots.find((h) => h.venueId === location.id && !h.deleted);
		const event = buildEvent({ rng, type, organizationId, contact, location, hotspot, createdAtMs, visibleAt: createdAtMs + visibleAfterMs });
		// Kind-specific parts (visit, signup, email...) belong inside event{}; everything else merges at the top.
		for (const [key, value] of Object.entries(extra)) deepMerge(PAYLOAD_KEYS.includes(key) ? event.event : event, { [key]: value });
		return event;
	});
	events.push(...built);
	return built;
}

module.exports = { FILTERABLE_KINDS, EVENT_KINDS, buildEvent, eventTiming, injectEvents };
