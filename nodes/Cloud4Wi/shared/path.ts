/** An id checked by `pathIdProblem`: the only kind of value `apiPath` accepts. */
export type PathId = string & { readonly __checkedPathId: true };

// Controls (C0, DEL, C1) and the Unicode line separators; none is in a Cloud4Wi id.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const ROUTE_CHARACTERS = /[/\\?#]/;
const ESCAPE = /%[0-9a-f]{2}/i;

/** What makes this value unusable as one path segment, or undefined when it is fine (the value as trimmed). */
export function pathIdProblem(id: string): string | undefined {
	if (id.trim() === '') return 'is empty';
	if (id.trim() !== id) return `"${id}" has leading or trailing spaces`;
	// Check the value and what it decodes to, since a proxy or the service may decode %2F or %2e%2e again.
	let layer = id;
	for (let depth = 0; depth < 4; depth++) {
		const escaped = depth > 0 ? ` (once %-decoded: "${layer}")` : '';
		if (layer === '.' || layer === '..')
			return `"${id}" is a dot segment${escaped}, which would point the request elsewhere`;
		if (CONTROL.test(layer))
			return `"${JSON.stringify(id).slice(1, -1)}" contains a control character${depth ? ' once %-decoded' : ''}`;
		if (ROUTE_CHARACTERS.test(layer))
			return `"${id}" contains "/", "\\", "?" or "#"${escaped}, which no Cloud4Wi ID has`;
		if (!ESCAPE.test(layer)) return undefined;
		try {
			layer = decodeURIComponent(layer);
		} catch {
			return undefined; // a lone % that decodes to nothing is sent encoded, as a literal %
		}
	}
	return `"${id}" is %-encoded too many times`;
}

/** Marks an id as checked; throws (a programming error, never user input) when it is not a safe path segment. */
export function asPathId(id: string): PathId {
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
