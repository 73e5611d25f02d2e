/** An id checked by `pathIdProblem`: the only kind of value `apiPath` accepts. */
export type PathId = string & { readonly __checkedPathId: true };

// Controls (C0, DEL, C1) and the Unicode line separators; none is in a Cloud4Wi id.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const ROUTE_CHARACTERS = /[/\\?#]/;
// Symbols (never letters) NFKC leaves alone that confusable or best-fit folding reads as "/", "\" or ".": solidi, ¥ ₩, "。".
const LOOK_ALIKES = /[\u2215\u2044\u29f8\u2571\u27cb\u2216\u29f5\u29f9\u2572\u27cd\u00a5\u20a9\u3002]/;
const ESCAPE = /%[0-9a-f]{2}/i;
/** Spaces (any Unicode space, and invisible ones), which a server may trim off a value (one at a time: no backtracking). */
const SPACE = /[\s\u200b-\u200d\u2060\ufeff]/g;
const BAD_ESCAPE = /%(?![0-9a-f]{2})/i;
// A lone UTF-16 surrogate is broken text: it cannot be %-encoded at all.
const LONE_SURROGATE = /[\ud800-\udfff]/u;
/** Longest id taken: far beyond any Cloud4Wi id, far below the ~8 KB request line a server refuses (414, 431). */
const MAX_ID_LENGTH = 1000;
/** Decoding rounds a value is read through; one still holding escapes after them is refused. */
const MAX_DECODES = 3;

/** One way a server or proxy may read a value: as sent, %-decoded (again), NFKC-normalised. */
interface Reading {
	text: string;
	decoded: boolean;
	normalised: boolean;
	/** Decoding this text hit %-escapes that are not UTF-8 (an overlong %c0%af, a broken sequence). */
	undecodable?: boolean;
}

/** Decodes every run of escapes that is UTF-8, and the ASCII escapes of runs that are not, as lenient servers do. */
function decodeLeniently(text: string): { text: string; undecodable: boolean } {
	let undecodable = false;
	const decoded = text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
		try {
			return decodeURIComponent(run);
		} catch {
			undecodable = true;
			return run.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
		}
	});
	return { text: decoded, undecodable };
}

/**
 * Every reading of a value a server may act on: the value, what it %-decodes to round after round, and each of those
 * NFKC-normalised (which maps fullwidth "／" to "/"), since a proxy or the service may decode or normalise again.
 */
function readingsOf(value: string): { readings: Reading[]; tooDeep: boolean } {
	const readings: Reading[] = [];
	const seen = new Set<string>();
	let round: Reading[] = [{ text: value, decoded: false, normalised: false }];
	for (let depth = 0; round.length; depth++) {
		if (depth > MAX_DECODES) return { readings, tooDeep: true };
		const next: Reading[] = [];
		for (const reading of round) {
			for (const form of [reading, { ...reading, text: reading.text.normalize('NFKC'), normalised: true }]) {
				if (seen.has(form.text)) continue;
				seen.add(form.text);
				readings.push(form);
				if (!ESCAPE.test(form.text)) continue;
				const { text, undecodable } = decodeLeniently(form.text);
				form.undecodable = undecodable;
				next.push({ text, decoded: true, normalised: form.normalised });
			}
		}
		round = next;
	}
	return { readings, tooDeep: false };
}

/** How a reading was reached, for a message: ` (once %-decoded: "a/b")`. */
function howRead(reading: Reading): string {
	if (!reading.decoded && !reading.normalised) return '';
	const how = [reading.decoded && '%-decoded', reading.normalised && 'normalised'].filter(Boolean).join(' and ');
	return ` (once ${how}: "${JSON.stringify(reading.text).slice(1, -1)}")`;
}

/** What makes this value unusable as one path segment, or undefined when it is fine (the value as trimmed). */
export function pathIdProblem(id: string): string | undefined {
	if (id.trim() === '') return 'is empty';
	if (id.length > MAX_ID_LENGTH)
		return `is ${id.length.toLocaleString('en-US')} characters long, more than the ${MAX_ID_LENGTH.toLocaleString('en-US')} an ID may have`;
	if (id.trim() !== id) return `"${id}" has leading or trailing spaces`;
	const shown = JSON.stringify(id).slice(1, -1);
	if (LONE_SURROGATE.test(id)) return `"${shown}" contains broken text (a lone UTF-16 surrogate)`;
	const { readings, tooDeep } = readingsOf(id);
	for (const reading of readings) {
		const { text } = reading;
		const how = howRead(reading);
		// Padded too ("..%20", "%E3%80%80.."): a server or proxy that trims the segment reads "..".
		const dots = text.replace(SPACE, '');
		if (dots === '.' || dots === '..') return `"${id}" is a dot segment${how}, which would point the request elsewhere`;
		if (CONTROL.test(text)) return `"${shown}" contains a control character${reading.decoded ? ' once %-decoded' : ''}`;
		if (ROUTE_CHARACTERS.test(text)) return `"${id}" contains "/", "\\", "?" or "#"${how}, which no Cloud4Wi ID has`;
		// Servers that read matrix parameters (a;v=1) cut the segment at the ";" or take the rest as parameters.
		if (text.includes(';')) return `"${id}" contains ";"${how}, which starts path parameters and no Cloud4Wi ID has`;
		// A server that takes several ids in one segment (a,b) would act on two records.
		if (text.includes(','))
			return `"${id}" contains a comma${how}, which could be read as two IDs and no Cloud4Wi ID has`;
		const lookAlike = LOOK_ALIKES.exec(text)?.[0];
		if (lookAlike) {
			const code = `U+${lookAlike.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
			return `"${id}" contains "${lookAlike}" (${code})${how}, a look-alike of "/", "\\" or ".", which no Cloud4Wi ID has`;
		}
		if (BAD_ESCAPE.test(text))
			return `"${id}" has a "%" not followed by two hex digits${how}, which no Cloud4Wi ID has`;
		if (reading.undecodable)
			return `"${id}" has %-escapes that do not decode to text${how} (such as the overlong "%c0%af")`;
	}
	if (tooDeep) return `"${id}" is %-encoded too many times`;
	return undefined;
}

/** What makes this value unusable as one entry of a comma-separated list, or undefined when it is fine. */
export function listEntryProblem(entry: string): string | undefined {
	const { readings, tooDeep } = readingsOf(entry);
	const comma = readings.find((reading) => reading.text.includes(','));
	if (comma) return `"${entry}" contains a comma${howRead(comma)}, which would make it two entries`;
	if (tooDeep) return `"${entry}" is %-encoded too many times`;
	return undefined;
}

/** Marks an id as checked; throws (a programming error, never user input) when it is not a safe path segment. */
function asPathId(id: string): PathId {
	const problem = pathIdProblem(id);
	if (problem) throw new Error(`Refused to build a Cloud4Wi path: the ID ${problem}`);
	return id as PathId;
}

/** Builds a path from checked ids, URL-encoding each one, so no id can change the route. */
export function apiPath(strings: TemplateStringsArray, ...ids: PathId[]): string {
	return strings.reduce((path, part, i) => {
		if (i >= ids.length) return path + part;
		return path + part + encodeURIComponent(asPathId(ids[i]));
	}, '');
}
