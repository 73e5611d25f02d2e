/** The letter of each short JSON escape (`\"`, `\n` ...); any character may also be written `\uXXXX`. */
const ESCAPE_LETTERS: Record<string, string> = {
	'"': '"',
	'\\': '\\',
	'/': '/',
	'\b': 'b',
	'\f': 'f',
	'\n': 'n',
	'\r': 'r',
	'\t': 't',
};

/** Characters no JSON writer or URL encoder needs to escape: a secret of only these is escaped only as `\uXXXX`. */
const PLAIN = /^[\w.~-]*$/;

const literal = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/**
 * One UTF-16 unit as itself or escaped, at any depth: JSON quoted inside a JSON string doubles the backslashes
 * (`"` is `\"` once, `\\\"` twice), so an escape is one or more backslashes, then its letter or `uXXXX` (either case).
 */
function anyWriting(c: string): string {
	const hex = c
		.charCodeAt(0)
		.toString(16)
		.padStart(4, '0')
		.replace(/[a-f]/g, (h) => `[${h}${h.toUpperCase()}]`);
	const letter = ESCAPE_LETTERS[c];
	return `(?:${literal(c)}|\\\\+(?:${letter ? `${literal(letter)}|` : ''}u${hex}))`;
}

/**
 * `text` with each secret (the client secret, tokens) masked wherever it is quoted: as sent, URL-encoded, or
 * JSON-escaped at any depth (`\"`, `\/`, `\u002B`: serializers differ, and a message may quote a JSON body inside a
 * JSON string).
 */
export function maskSecrets(text: string, secrets: Iterable<unknown>): string {
	let masked = text;
	for (const secret of new Set(secrets)) {
		if (typeof secret !== 'string' || secret.length < 4) continue; // a few characters would mask ordinary words
		if (masked.includes(secret)) masked = masked.split(secret).join('***');
		const encoded = encodeURIComponent(secret);
		if (encoded !== secret) {
			for (const form of [encoded, encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())]) {
				if (masked.includes(form)) masked = masked.split(form).join('***');
			}
		}
		// Escaped forms: looked for only where an escape is (a 16 MB page without one costs a single scan).
		if (masked.includes(PLAIN.test(secret) ? '\\u' : '\\')) {
			masked = masked.replace(new RegExp(secret.split('').map(anyWriting).join(''), 'g'), '***');
		}
	}
	return masked;
}
