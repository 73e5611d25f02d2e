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

/**
 * Backslashes before an escaped character: one per JSON level, doubled by each level around it (1, 3, 7, 15, 31). Bounded,
 * so a long run of backslashes in an answer costs a fixed number of steps per character, not the run's length.
 */
const BACKSLASHES = '\\\\{1,31}';

/** Characters no JSON writer needs to escape: a secret of only these is escaped only as `\uXXXX` or `%XX`. */
const PLAIN = /^[\w.~-]*$/;

const literal = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** Hex digits in either case. */
const anyCase = (hex: string) => hex.replace(/[a-f]/gi, (h) => `[${h.toLowerCase()}${h.toUpperCase()}]`);

/** A UTF-16 unit as `\uXXXX`. */
const unitEscape = (unit: number) => `u${anyCase(unit.toString(16).padStart(4, '0'))}`;

/** The UTF-8 bytes of a character as `%XX` each. */
function percentEncoded(ch: string): string {
	const code = ch.codePointAt(0)!;
	const bytes = code < 0x80 ? [code.toString(16).padStart(2, '0')] : encodeURIComponent(ch).split('%').filter(Boolean);
	return bytes.map((hex) => `%${anyCase(hex)}`).join('');
}

/**
 * One character as itself or as any service may quote it: JSON-escaped at any depth (JSON quoted inside a JSON string
 * doubles the backslashes), percent-encoded (either case of hex digits), a space as `+` (form encoding). The first
 * character's escape must start a run of backslashes: begun inside one, its replacement would leave a lone backslash.
 */
function anyWriting(ch: string, first: boolean): string {
	const before = first ? `(?<!\\\\)${BACKSLASHES}` : BACKSLASHES;
	const letter = ESCAPE_LETTERS[ch];
	const escaped =
		ch.length === 2
			? `${before}${unitEscape(ch.charCodeAt(0))}${BACKSLASHES}${unitEscape(ch.charCodeAt(1))}`
			: `${before}(?:${letter ? `${literal(letter)}|` : ''}${unitEscape(ch.charCodeAt(0))})`;
	return `(?:${literal(ch)}|${escaped}|${percentEncoded(ch)}${ch === ' ' ? '|\\+' : ''})`;
}

/**
 * `text` with each secret (the client secret, tokens) masked wherever it is quoted: as sent, percent- or form-encoded,
 * or JSON-escaped at any depth (`\"`, `\/`, `\u002B`: serializers differ, and a message may quote a JSON body inside a
 * JSON string).
 */
export function maskSecrets(text: string, secrets: Iterable<unknown>): string {
	let masked = text;
	for (const secret of new Set(secrets)) {
		if (typeof secret !== 'string' || secret.length < 4) continue; // a few characters would mask ordinary words
		if (masked.includes(secret)) masked = masked.split(secret).join('***');
		// Other forms: looked for only where one can be (a 16 MB page without an escape costs a few scans).
		const plain = PLAIN.test(secret);
		const escapes = masked.includes(plain ? '\\u' : '\\');
		if (!escapes && !masked.includes('%') && !(secret.includes(' ') && masked.includes('+'))) continue;
		const pattern = Array.from(secret, (ch, i) => anyWriting(ch, i === 0)).join('');
		masked = masked.replace(new RegExp(pattern, 'g'), '***');
	}
	return masked;
}
