/** Shared pieces of the property tests of the checks: safe text, %-encoding at a depth, NFKC look-alikes. */
import fc from 'fast-check';

/** Text no check objects to, to put around the part under test. */
export const SAFE = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);

/** `text` %-encoded `rounds` times: every UTF-8 byte once, then the "%" of each escape again per further round. */
export function encoded(text: string, rounds: number, upper = false): string {
	if (rounds === 0) return text;
	const escapes = [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
	let out = upper ? escapes.toUpperCase() : escapes;
	for (let round = 1; round < rounds; round++) out = out.replace(/%/g, '%25');
	return out;
}

/** Every code point (surrogates aside) that NFKC changes into text for which `wanted` holds. */
export function lookAlikes(wanted: (normalised: string) => boolean): string[] {
	const found: string[] = [];
	for (let cp = 0; cp <= 0x10ffff; cp++) {
		if (cp >= 0xd800 && cp <= 0xdfff) continue;
		const char = String.fromCodePoint(cp);
		const normalised = char.normalize('NFKC');
		if (normalised !== char && wanted(normalised)) found.push(char);
	}
	return found;
}

/** A character as U+XXXX, as a failure lists it. */
export const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
