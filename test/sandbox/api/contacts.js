'use strict';
// Contacts: list with filters and scroll, profile, delete, opt-ins, access code and the per-contact sub-lists.

const { conflict, boolParam, listParam, enumParam, dateRangeParams, requireBodyObject } = require('../lib/params');
const { CUSTOM_OPTINS, STANDARD_POLICIES } = require('../data/catalog');
const { eventTiming } = require('../data/events');
const { generated, requireOrganization, requireContact, scrollPage } = require('./common');

const policyAccepted = (contact, name) => contact.policies.find((p) => p.name === name)?.accepted ?? false;
const lower = (value) => (typeof value === 'string' ? value.toLowerCase() : value);
const digitsOnly = (value) => (typeof value === 'string' ? value.replace(/\D/g, '') : value);

/** sortBy values of the spec and the contact value each one orders by. */
const SORT_KEYS = {
	firstName: (c) => c.firstName,
	lastName: (c) => c.lastName,
	gender: (c) => c.gender,
	birthDate: (c) => c.birthDate,
	country: (c) => c.country,
	created: (c) => c.created,
	privacy: (c) => policyAccepted(c, 'privacy'),
	termsOfUse: (c) => policyAccepted(c, 'termsOfUse'),
	mktgCommunications: (c) => policyAccepted(c, 'mktgCommunications'),
	ageVerification: (c) => policyAccepted(c, 'ageVerification'),
	phone: (c) => c.phone,
	phoneVerified: (c) => c.phoneVerified,
	email: (c) => c.email,
	emailVerified: (c) => c.emailVerified,
	provider: (c) => c.signupMethod,
	username: (c) => c.username,
	locked: (c) => c.locked,
	locations: (c) => c.locationName,
	system: (c) => c.system,
	enabled: (c) => c.enabled,
	type: (c) => c.type,
	modified_absolute: (c) => c.modified,
	created_absolute: (c) => c.created,
	totalVisits: (c) => c.metrics.countTotalVisits,
	visitedLocations: (c) => c.metrics.countVisitedLocations,
};

/** Builds one predicate from the query's filters (null when there are none); invalid values -> 409. */
function contactFilter(query) {
	const tests = [];
	// Boolean filters: true keeps contacts where the test holds, false those where it does not.
	const flag = (name, test) => {
		const wanted = boolParam(query, name);
		if (wanted !== undefined) tests.push((c) => test(c) === wanted);
	};
	flag('hasEmail', (c) => Boolean(c.email));
	flag('emailVerified', (c) => c.emailVerified);
	flag('hasPhone', (c) => Boolean(c.phone));
	flag('phoneVerified', (c) => c.phoneVerified);
	flag('mktgCommunications', (c) => policyAccepted(c, 'mktgCommunications'));
	flag('ageVerification', (c) => policyAccepted(c, 'ageVerification'));
	for (const name of Object.keys(query)) {
		if (!name.startsWith('customOptin.')) continue;
		const title = name.slice('customOptin.'.length).replace(/^customs\./, ''); // both the title and the policy key work
		flag(name, (c) => policyAccepted(c, `customs.${title}`));
	}

	const anyOf = (name, values) => {
		const wanted = listParam(query, name);
		if (wanted) tests.push((c) => values(c).some((v) => wanted.includes(v)));
	};
	anyOf('signupMethods', (c) => [c.signupMethod]);
	anyOf('locationCids', (c) => [c.locationCid]);
	anyOf('segmentCids', (c) => c.segments.map((s) => s.cid));

	const between = (startName, endName, field) => {
		const { start, end } = dateRangeParams(query, startName, endName);
		if (start !== undefined) tests.push((c) => Date.parse(field(c)) >= start);
		if (end !== undefined) tests.push((c) => Date.parse(field(c)) <= end);
	};
	between('createdStart', 'createdEnd', (c) => c.created);
	between('modifiedStart', 'modifiedEnd', (c) => c.modified);

	// Searches are exact; emails and usernames ignore case, phone numbers compare digits only ('+' often arrives as a space).
	const search = (name, field, normalize = (v) => v) => {
		if (query[name]) tests.push((c) => field(c) !== null && normalize(field(c)) === normalize(query[name]));
	};
	search('email', (c) => c.email, lower);
	search('phoneNumber', (c) => c.phone, digitsOnly);
	search('username', (c) => c.username, lower);
	search('extId', (c) => c.extId.id);
	search('extProp1', (c) => c.extId.prop1);
	search('extProp2', (c) => c.extId.prop2);

	return tests.length ? (c) => tests.every((test) => test(c)) : null;
}

function selectContacts(state, query) {
	const predicate = contactFilter(query);
	const sortBy = enumParam(query, 'sortBy', Object.keys(SORT_KEYS), undefined);
	const reverse = boolParam(query, 'sortReverse');
	if (reverse !== undefined && !sortBy) throw conflict('Invalid parameter sortReverse: requires sortBy');
	return state.contacts.select(predicate, sortBy && SORT_KEYS[sortBy], reverse ?? false);
}

function list({ state, params, query }) {
	requireOrganization(state, params.organizationId);
	const { scroll, page } = scrollPage(state, { kind: 'contacts', query, param: 'sid', select: () => selectContacts(state, query) });
	return {
		body: {
			generated: generated(state),
			totalCount: scroll.items.length,
			count: page.length,
			sId: scroll.id,
			customers: Array.from(page, (index) => state.contacts.peek(index)),
		},
	};
}

function get({ state, params }) {
	const index = requireContact(state, params.contactId);
	return { body: { generated: generated(state), customer: state.contacts.peek(index) } };
}

function remove({ state, params }) {
	requireContact(state, params.contactId);
	state.contacts.delete(params.contactId);
	return { body: { status: 'deleted', generated: generated(state) } };
}

function createAccessCode({ state, params }) {
	requireContact(state, params.contactId);
	return { body: { generated: generated(state), status: 'ok', otp: state.rng.digits(6) } };
}

/**
 * Applies the known policy keys (the four standard ones, the organization's custom opt-ins and the
 * contact's own); unknown keys are skipped and turn the answer into 207. The body maps applied keys to values.
 */
function updateOptIns({ state, params, body }) {
	const index = requireContact(state, params.contactId);
	requireBodyObject(body);
	const items = body.policies;
	if (!Array.isArray(items) || items.length === 0) {
		throw conflict('Missing parameter policies: a non-empty array of { policyKey, accepted } is required');
	}
	items.forEach((item, i) => {
		if (!item || typeof item.policyKey !== 'string' || !item.policyKey || typeof item.accepted !== 'boolean') {
			throw conflict(`Invalid parameter policies[${i}]: needs policyKey (string) and accepted (boolean)`);
		}
	});
	const contact = state.contacts.record(index); // the cached record, so the change sticks
	const known = new Set([...STANDARD_POLICIES, ...CUSTOM_OPTINS.map((title) => `customs.${title}`), ...contact.policies.map((p) => p.name)]);
	const applied = {};
	let skipped = 0;
	for (const { policyKey, accepted } of items) {
		if (!known.has(policyKey)) {
			skipped++;
			continue;
		}
		const policy = contact.policies.find((p) => p.name === policyKey);
		if (policy) policy.accepted = accepted;
		else contact.policies.push({ name: policyKey, accepted });
		applied[policyKey] = accepted;
	}
	if (Object.keys(applied).length) contact.modified = generated(state);
	return { status: skipped ? 207 : 200, body: applied };
}

// ---- per-contact sub-lists, derived from the organization's events and connections ----

const newestFirst = (a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0);
const visibleEventsOf = (state, cid) => {
	const now = state.clock.now();
	return state.data.events.filter((e) => e.customerId === cid && eventTiming(e).visibleAt <= now);
};
const connectionsOf = (state, cid) => state.data.connections.filter((c) => c.customerId === cid);

const ACTIVITY_KINDS = {
	promo: 'Promo',
	survey: 'Survey',
	send_email: 'Campaigns',
	open_email: 'Campaigns',
	click_email: 'Campaigns',
	send_sms: 'Campaigns',
	click_sms: 'Campaigns',
};

/** Interactions with content applications: surveys, promos, campaign messages sent, opened, clicked. */
function activities({ state, params }) {
	requireContact(state, params.contactId);
	const records = visibleEventsOf(state, params.contactId)
		.filter((e) => ACTIVITY_KINDS[e.event.type])
		.map(({ event, where, when }) => {
			const detail = event.email ?? event.sms ?? event.survey ?? {};
			return {
				id: event.id,
				type: event.type,
				application: ACTIVITY_KINDS[event.type],
				channel: event.email ? 'email' : event.sms ? 'sms' : 'captive_portal',
				campaignId: detail.campaignId ?? null,
				campaignName: detail.campaignName ?? null,
				locationId: where.locationId ?? null,
				date: when.createdAt,
				dateLocal: when.createdAtLocal,
			};
		})
		.sort(newestFirst);
	return { body: { generated: generated(state), count: records.length, activities: records } };
}

/** Every device of the contact with its connection count and last connection (null if never connected). */
function devices({ state, params }) {
	const index = requireContact(state, params.contactId);
	const connections = connectionsOf(state, params.contactId);
	const macs = new Set([...state.contacts.devicesOf(index), ...connections.map((c) => c.macAddressClient)]);
	const records = [...macs].map((macAddress) => {
		const used = connections.filter((c) => c.macAddressClient === macAddress);
		const last = used.reduce((latest, c) => (!latest || c.start > latest.start ? c : latest), null);
		return {
			macAddress,
			connections: used.length,
			firstConnection: used.reduce((first, c) => (!first || c.start < first ? c.start : first), null),
			lastConnection: last?.start ?? null,
			lastLocationId: last?.locationId ?? null,
			lastLocationName: last?.locationName ?? null,
			traffic: used.reduce((sum, c) => sum + c.traffic, 0),
		};
	});
	return { body: { generated: generated(state), count: records.length, devices: records } };
}

/** Location events: visits and WiFi connections with date and duration (seconds), newest first. */
function locationEvents({ state, params }) {
	requireContact(state, params.contactId);
	const visits = visibleEventsOf(state, params.contactId)
		.filter((e) => e.event.type === 'visit')
		.map(({ event, where }) => ({
			id: event.id,
			type: 'visit',
			locationId: where.locationId,
			locationName: where.locationName,
			date: event.visit.startAt,
			dateLocal: event.visit.startAtLocal,
			timezone: event.visit.timezone,
			duration: event.visit.duration,
		}));
	const wifi = connectionsOf(state, params.contactId).map((c) => ({
		id: `${c.hotspotId}-${Date.parse(c.start)}`,
		type: 'wifi_connection',
		locationId: c.locationId,
		locationName: c.locationName,
		date: c.start,
		dateLocal: c.startBusiness,
		duration: c.duration,
		hotspotId: c.hotspotId,
	}));
	const records = [...visits, ...wifi].sort(newestFirst);
	return { body: { generated: generated(state), count: records.length, events: records } };
}

module.exports = { list, get, remove, createAccessCode, updateOptIns, activities, devices, locationEvents };
