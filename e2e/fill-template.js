'use strict';
// Copies a JSON fixture, replacing __NAME__ placeholders inside strings with JSON-escaped values:
//   node e2e/fill-template.js <template> <output> NAME=value ...
// Fails when a placeholder is left over or the result is not valid JSON.
const fs = require('node:fs');

const [template, output, ...pairs] = process.argv.slice(2);
if (!template || !output) {
	console.error('usage: node e2e/fill-template.js <template> <output> NAME=value ...');
	process.exit(2);
}
let text = fs.readFileSync(template, 'utf8');
for (const pair of pairs) {
	const at = pair.indexOf('=');
	const name = pair.slice(0, at);
	const value = pair.slice(at + 1);
	text = text.split(`__${name}__`).join(JSON.stringify(value).slice(1, -1));
}
const left = text.match(/__[A-Z][A-Z0-9_]*__/);
if (left) {
	console.error(`${template}: placeholder ${left[0]} not given`);
	process.exit(1);
}
JSON.parse(text);
fs.writeFileSync(output, text);
