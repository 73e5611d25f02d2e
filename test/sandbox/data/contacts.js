'use strict';
// Contacts are generated on demand from (seed, index): 100000 of them cost nothing until they are read.

const { hash32, Rng } = require('../lib/random');
const { DAY_MS, isoUtc, toLocalIso } = require('../lib/time');
const C = require('./catalog');

// Local copies: global lookups are slow inside Jest's vm contexts, and this code runs 100000 times per scan.
const { imul, floor, min, max, round } = Math;
const { fromCharCode } = String;

// Independent random streams per aspect, so e.g. segment membership is cheap to compute alone.
const STREAM = { profile: 1, segments: 2, devices: 3, cidMask: 4, cidHigh: 5, cidMid: 6 };
const YEAR_MS = 365 * DAY_MS;
const CREATED_SPAN_MS = 3 * YEAR_MS;

const hex8 = (n) => (n >>> 0).toString(16).padStart(8, '0');

// An odd multiplier and its inverse mod 2^32: scrambles the index inside a cid, reversibly.
const CID_MULTIPLIER = 0x9e3779b1;
const CID_INVERSE = [1, 2, 3, 4, 5].reduce((x) => imul(x, 2 - imul(CID_MULTIPLIER, x)), CID_MULTIPLIER);
const asciiCache = new Map();
/** 'Müller' -> 'muller' for e-mail addresses; cached because the name pools are small. */
function asciiLower(text) {
	let ascii = asciiCache.get(text);
	if (ascii === undefined) {
		ascii = text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z]/g, '');
		asciiCache.set(text, ascii);
	}
	return ascii;
}
const COUNTRY_WEIGHTS = C.COUNTRIES.map((c) => [c, c.weight]);
const GENDER_WEIGHTS = [['male', 47], ['female', 47], ['other', 6]];
const fillPattern = (rng, pattern) =>
	pattern.replace(/[#A]/g, (ch) => (ch === '#' ? `${rng.int(0, 9)}` : fromCharCode(65 + rng.int(0, 25))));

/** Orders values with null/undefined always last; `reverse` flips only the non-null order. */
function compareNullsLast(a, b, reverse = false) {
	const aMissing = a === null || a === undefined;
	const bMissing = b === null || b === undefined;
	if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
	const order = a < b ? -1 : a > b ? 1 : 0;
	return reverse ? -order : order;
}

class ContactStore {
	constructor({ seed, count, baseTime, organizationId, locations, segments }) {
		this.seed = seed;
		this.count = count;
		this.baseTime = baseTime;
		this.organizationId = organizationId;
		// Snapshots: later edits of locations or segments must not change who the seeded contacts are.
		this.locations = locations.map(({ id, name, timezone }) => ({ id, name, timezone }));
		this.segments = segments.map(({ id, name }) => ({ id, name }));
		this.cidMask = hash32(seed, STREAM.cidMask);
		this.cache = new Map(); // index -> record handed out (and maybe edited since)
		this.deleted = []; // sorted indexes, so the n-th live contact is found without a scan
		this.deletedSet = new Set();
	}

	// ---- identity ----

	/** 24 hex chars; the last 8 encode the index, so a cid resolves without any lookup table. */
	cidOf(index) {
		const encoded = imul(index, CID_MULTIPLIER) ^ this.cidMask;
		return hex8(hash32(this.seed, index, STREAM.cidHigh)) + hex8(hash32(this.seed, index, STREAM.cidMid)) + hex8(encoded);
	}

	indexOf(cid) {
		if (typeof cid !== 'string' || !/^[0-9a-f]{24}$/.test(cid)) return -1;
		const index = imul(parseInt(cid.slice(16), 16) ^ this.cidMask, CID_INVERSE) >>> 0;
		return index < this.count && this.cidOf(index) === cid ? index : -1;
	}

	isLive(index) {
		return index >= 0 && index < this.count && !this.deletedSet.has(index);
	}

	// ---- public, array-like access (records handed out are cached, so edits to them stick) ----

	get length() {
		return this.count - this.deleted.length;
	}

	get size() {
		return this.length;
	}

	has(cid) {
		return this.isLive(this.indexOf(cid));
	}

	get(cid) {
		const index = this.indexOf(cid);
		return this.isLive(index) ? this.record(index) : undefined;
	}

	/** The n-th live contact in seeded order (negative n counts from the end). */
	at(n) {
		const position = n < 0 ? this.length + n : n;
		if (!Number.isInteger(position) || position < 0 || position >= this.length) return undefined;
		let index = position;
		for (const deletedIndex of this.deleted) {
			if (deletedIndex <= index) index++;
			else break;
		}
		return this.record(index);
	}

	delete(cid) {
		const index = this.indexOf(cid);
		if (!this.isLive(index)) return false;
		const insertAt = this.deleted.findIndex((d) => d > index);
		this.deleted.splice(insertAt < 0 ? this.deleted.length : insertAt, 0, index);
		this.deletedSet.add(index);
		return true;
	}

	*[Symbol.iterator]() {
		for (let index = 0; index < this.count; index++) if (this.isLive(index)) yield this.record(index);
	}

	values() {
		return this[Symbol.iterator]();
	}

	toArray() {
		return [...this];
	}

	find(fn) {
		for (const contact of this) if (fn(contact)) return contact;
		return undefined;
	}

	filter(fn) {
		return this.toArray().filter(fn);
	}

	some(fn) {
		return this.find(fn) !== undefined;
	}

	map(fn) {
		return this.toArray().map(fn);
	}

	forEach(fn) {
		this.toArray().forEach(fn);
	}

	// ---- internal access for the API (no caching, so scans of 100000 contacts stay light) ----

	record(index) {
		let contact = this.cache.get(index);
		if (!contact) {
			contact = this.generate(index);
			this.cache.set(index, contact);
		}
		return contact;
	}

	/** Current data of a contact, deleted or not (scroll snapshots keep serving it). */
	peek(index) {
		return this.cache.get(index) ?? this.generate(index);
	}

	liveIndexes() {
		const out = new Int32Array(this.length);
		let k = 0;
		for (let index = 0; index < this.count; index++) if (!this.deletedSet.has(index)) out[k++] = index;
		return out;
	}

	/** Indexes of live contacts that match, sorted by `sortKey` (ties and default: seeded order). */
	select(predicate, sortKey, reverse = false) {
		if (!predicate && !sortKey) return this.liveIndexes();
		const matched = [];
		const keys = [];
		for (let index = 0; index < this.count; index++) {
			if (this.deletedSet.has(index)) continue;
			const contact = this.peek(index);
			if (predicate && !predicate(contact)) continue;
			matched.push(index);
			if (sortKey) keys.push(sortKey(contact));
		}
		if (!sortKey) return Int32Array.from(matched);
		const order = matched.map((_, k) => k);
		order.sort((a, b) => compareNullsLast(keys[a], keys[b], reverse) || matched[a] - matched[b]);
		return Int32Array.from(order, (k) => matched[k]);
	}

	segmentsOf(index) {
		const rng = new Rng(hash32(this.seed, index, STREAM.segments));
		return this.segments.filter((_, k) => rng.chance(0.5 / (k + 1) + 0.05));
	}

	/** MAC addresses of the contact's phones and laptops (used by WiFi connections). */
	devicesOf(index) {
		const rng = new Rng(hash32(this.seed, index, STREAM.devices));
		const count = rng.int(1, 3);
		return Array.from({ length: count }, () => `${rng.pick(C.DEVICE_OUIS)}:${rng.hex(2)}:${rng.hex(2)}:${rng.hex(2)}`.toUpperCase());
	}

	// ---- generation ----

	generate(index) {
		const rng = new Rng(hash32(this.seed, index, STREAM.profile));
		const base = this.baseTime;
		const gender = rng.weighted(GENDER_WEIGHTS);
		const firstName = rng.pick(C.FIRST_NAMES[gender]);
		const lastName = rng.pick(C.LAST_NAMES);
		const country = rng.weighted(COUNTRY_WEIGHTS);
		// Creation dates grow with the index, so the default order is also creation order.
		const step = CREATED_SPAN_MS / max(this.count, 1);
		const createdMs = floor(base - CREATED_SPAN_MS + index * step + rng.next() * step);
		const modifiedMs = createdMs + floor(rng.next() * (base - createdMs) * 0.5);
		const lastLoginMs = createdMs + floor(rng.next() * (base - createdMs));
		const hasEmail = rng.chance(0.85);
		const hasPhone = rng.chance(0.7);
		const email = hasEmail ? `${asciiLower(firstName)}.${asciiLower(lastName)}${index + 1}@${rng.pick(C.EMAIL_DOMAINS)}` : null;
		const phone = hasPhone ? this.phoneNumber(rng, country, index) : null;
		const signupMethod = rng.pick(
			hasEmail && hasPhone ? ['email', 'sms', 'form', 'facebook', 'google']
			: hasEmail ? ['email', 'form', 'facebook', 'google', 'linkedin']
			: hasPhone ? ['sms']
			: ['facebook', 'kiosk'],
		);
		const social = ['facebook', 'google', 'linkedin'].includes(signupMethod);
		const birth = rng.chance(0.9) ? this.birthOf(rng) : null;
		const location = this.locations.length ? rng.pick(this.locations) : null;
		const segments = this.segmentsOf(index);
		const hasExtId = rng.chance(0.3);

		return {
			cid: this.cidOf(index),
			title: gender === 'male' ? 'Mr' : gender === 'female' ? rng.pick(['Ms', 'Mrs']) : null,
			firstName,
			lastName,
			gender,
			birthDate: birth?.date ?? null,
			birthDay: birth?.date.slice(5) ?? null,
			age: birth ? `${birth.age}` : null,
			country: country.code,
			zipCode: fillPattern(rng, country.zip),
			created: isoUtc(createdMs),
			modified: isoUtc(modifiedMs),
			email,
			emailVerified: hasEmail && rng.chance(0.6),
			phone,
			phoneVerified: hasPhone && rng.chance(0.5),
			signupMethod,
			externalIdentityId: social ? rng.digits(15) : null,
			username: email ?? phone ?? `${asciiLower(firstName)}.${asciiLower(lastName)}.${index + 1}`,
			locked: rng.chance(0.02),
			organizationCid: this.organizationId,
			locationCid: location?.id ?? null,
			system: signupMethod === 'kiosk' ? 'kiosk' : 'captive_portal',
			enabled: !rng.chance(0.03),
			type: 'customer',
			locationName: location?.name ?? null,
			personalId: null,
			externalSource: hasExtId ? 'crm' : null,
			lastLogin: isoUtc(lastLoginMs),
			segmentCids: segments.map((s) => s.id).join(','),
			logins: 1 + floor(rng.next() ** 3 * 200),
			policies: this.policiesOf(rng),
			segments: segments.map((s) => ({ cid: s.id, name: s.name })),
			extId: hasExtId
				? { id: `CRM-${`${index + 1}`.padStart(6, '0')}`, prop1: rng.pick(['tier:gold', 'tier:silver', 'tier:bronze']), prop2: `region:${country.code}` }
				: { id: null, prop1: null, prop2: null },
			metrics: this.metricsOf(rng, createdMs),
		};
	}

	/** E.164; the last six digits are the index, so phone numbers are unique. */
	phoneNumber(rng, country, index) {
		const prefix = rng.pick(country.mobile);
		const serial = `${index % 1_000_000}`.padStart(6, '0');
		return country.dial + prefix + rng.digits(country.nationalLength - prefix.length - serial.length) + serial;
	}

	birthOf(rng) {
		const birthMs = this.baseTime - rng.int(18, 75) * YEAR_MS - rng.int(0, 364) * DAY_MS;
		const date = isoUtc(birthMs).slice(0, 10);
		return { date, age: floor((this.baseTime - birthMs) / (365.25 * DAY_MS)) };
	}

	policiesOf(rng) {
		const policies = [
			{ name: 'privacy', accepted: true },
			{ name: 'termsOfUse', accepted: true },
			{ name: 'mktgCommunications', accepted: rng.chance(0.55) },
			{ name: 'ageVerification', accepted: rng.chance(0.8) },
		];
		for (const title of C.CUSTOM_OPTINS) {
			if (rng.chance(0.6)) policies.push({ name: `customs.${title}`, accepted: rng.chance(0.5) });
		}
		return policies;
	}

	metricsOf(rng, createdMs) {
		const visits = this.locations.length ? floor(rng.next() ** 2 * 60) : 0;
		if (visits === 0) {
			return {
				frequencyMonthlyVisit: 0, compassTopLocation: null, compassTopLocationCount: 0, topFrequencyBuckets: 'none',
				lastVisitVenue: null, prefVisitWDay: null, lastVisitDateUtc: null, avgVisitLength: 0, countVisitedLocations: 0,
				prefVisitTimebucket: null, prefVisitTimeHour: null, lastVisitDateBusiness: null, countTotalVisits: 0,
				conversionRate: 0, avgDaysBetweenVisits: 0,
			};
		}
		const top = rng.pick(this.locations);
		const last = rng.chance(0.7) ? top : rng.pick(this.locations);
		const lastVisitMs = max(createdMs, this.baseTime - rng.int(0, 90) * DAY_MS - rng.int(0, DAY_MS));
		const hour = rng.int(8, 21);
		return {
			frequencyMonthlyVisit: round((visits / 12) * 100) / 100,
			compassTopLocation: top.name,
			compassTopLocationCount: rng.int(1, visits),
			topFrequencyBuckets: visits > 24 ? 'weekly' : visits > 6 ? 'monthly' : 'occasional',
			lastVisitVenue: last.name,
			prefVisitWDay: rng.pick(C.WEEKDAYS),
			lastVisitDateUtc: isoUtc(lastVisitMs),
			avgVisitLength: rng.int(10, 180),
			countVisitedLocations: rng.int(1, min(visits, this.locations.length)),
			prefVisitTimebucket: hour < 12 ? 'morning' : hour < 15 ? 'lunch' : hour < 18 ? 'afternoon' : 'evening',
			prefVisitTimeHour: `${hour}`,
			lastVisitDateBusiness: toLocalIso(lastVisitMs, last.timezone),
			countTotalVisits: visits,
			conversionRate: round(rng.next() * 100) / 100,
			avgDaysBetweenVisits: round((365 / visits) * 10) / 10,
		};
	}
}

/** Lets tests index the store like an array (contacts[0]); everything else goes to the store itself. */
function arrayView(store) {
	return new Proxy(store, {
		get(target, prop) {
			if (typeof prop === 'string' && /^\d+$/.test(prop)) return target.at(Number(prop));
			const value = Reflect.get(target, prop, target);
			return typeof value === 'function' ? value.bind(target) : value;
		},
	});
}

module.exports = { ContactStore, arrayView, compareNullsLast };
