'use strict';
// Sandbox clock, ISO 8601 parsing and time-zone arithmetic (Intl only, no dependencies).

// Local copies: global lookups are slow inside Jest's vm contexts, and these run for every generated contact.
const NativeDate = Date;
const { floor } = Math;

const SECOND_MS = 1000;
const DAY_MS = 86_400_000;

/**
 * Real time plus an adjustable offset: the sandbox keeps running like the real service,
 * while tests can jump forward (token expiry, scroll expiry, late events) without waiting.
 */
function createClock(initialMs) {
	// No start given: no offset. `initialMs = Date.now()` read the clock twice, and a millisecond that ticked in between
	// left the sandbox 1 ms behind n8n: events injected right after a trigger's first poll were dated before its start.
	let offset = initialMs === undefined ? 0 : initialMs - Date.now();
	const clock = {
		now: () => Date.now() + offset,
		set(ms) {
			offset = ms - Date.now();
			return clock.now();
		},
		advance(ms) {
			offset += ms;
			return clock.now();
		},
	};
	return clock;
}

const pad2 = (n) => (n < 10 ? `0${n}` : `${n}`);

/** Same output as toISOString(), about twice as fast (it runs several times per generated contact). */
function isoUtc(ms) {
	const d = new NativeDate(ms);
	const year = d.getUTCFullYear();
	if (year < 1000 || year > 9999) return d.toISOString();
	const millis = d.getUTCMilliseconds();
	return `${year}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

const formatters = new Map();

/** Wall-clock fields of an instant in a zone; one cached formatter per zone keeps this cheap. */
function wallClock(ms, zone) {
	let formatter = formatters.get(zone);
	if (!formatter) {
		formatter = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
		});
		formatters.set(zone, formatter);
	}
	const parts = {};
	for (const { type, value } of formatter.formatToParts(ms)) parts[type] = value;
	return parts;
}

function isValidTimeZone(zone) {
	try {
		wallClock(0, zone);
		return true;
	} catch {
		return false;
	}
}

/** Offset of the zone from UTC at that instant, in ms (positive east of Greenwich), straight from Intl. */
function exactOffsetMs(ms, zone) {
	const p = wallClock(ms, zone);
	const wallAsUtc = NativeDate.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
	return wallAsUtc - floor(ms / SECOND_MS) * SECOND_MS;
}

const dayOffsets = new Map();

/**
 * Same as exactOffsetMs, cached per zone and UTC day when the offset is the same at both ends of
 * the day (no DST switch inside): seeding 100000 contacts would otherwise spend its time in Intl.
 */
function zoneOffsetMs(ms, zone) {
	const day = floor(ms / DAY_MS);
	const key = `${zone}|${day}`;
	let offset = dayOffsets.get(key);
	if (offset === undefined) {
		const atStart = exactOffsetMs(day * DAY_MS, zone);
		offset = atStart === exactOffsetMs((day + 1) * DAY_MS - 1, zone) ? atStart : null; // null: switch day, ask Intl
		if (dayOffsets.size > 50_000) dayOffsets.clear(); // bounded memory
		dayOffsets.set(key, offset);
	}
	return offset ?? exactOffsetMs(ms, zone);
}

/** Local wall time without offset ('YYYY-MM-DDTHH:mm:ss.SSS'), so strings sort by business time. */
const toLocalIso = (ms, zone) => isoUtc(ms + zoneOffsetMs(ms, zone)).slice(0, 23);

/** Converts wall-clock fields (encoded as if UTC) of a zone to the real instant; two passes settle DST edges. */
function zonedWallToUtc(wallMs, zone) {
	let guess = wallMs - zoneOffsetMs(wallMs, zone);
	guess = wallMs - zoneOffsetMs(guess, zone);
	return guess;
}

const ISO_RE =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * Parses an ISO 8601 date or date-time; returns null when it is not one.
 * Date-only values mean the start of that day in `zone` (or its last ms with `endOfDay`);
 * date-times without an offset are read as UTC.
 */
function parseIso(text, { endOfDay = false, zone = 'UTC' } = {}) {
	const m = ISO_RE.exec(String(text).trim());
	if (!m) return null;
	const [, year, month, day, hour, minute, second, fraction, offset] = m;
	const fields = [+year, +month - 1, +day, +(hour ?? 0), +(minute ?? 0), +(second ?? 0)];
	const millis = fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0;
	const wall = Date.UTC(...fields, millis);
	const check = new Date(wall);
	// Date.UTC silently rolls over (Feb 30 -> Mar 2): reject anything that did not round-trip.
	if (check.getUTCFullYear() !== fields[0] || check.getUTCMonth() !== fields[1] || check.getUTCDate() !== fields[2]) return null;
	if (fields[3] > 23 || fields[4] > 59 || fields[5] > 59) return null;

	if (hour === undefined) {
		const ms = endOfDay ? zonedWallToUtc(wall + DAY_MS, zone) - 1 : zonedWallToUtc(wall, zone);
		return { ms, hasTime: false, hasOffset: false };
	}
	if (!offset) return { ms: wall, hasTime: true, hasOffset: false };
	if (offset.toUpperCase() === 'Z') return { ms: wall, hasTime: true, hasOffset: true };
	const sign = offset[0] === '-' ? -1 : 1;
	const digits = offset.slice(1).replace(':', '');
	const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0);
	return { ms: wall - sign * minutes * 60_000, hasTime: true, hasOffset: true };
}

module.exports = { DAY_MS, createClock, isoUtc, isValidTimeZone, toLocalIso, zonedWallToUtc, parseIso };
