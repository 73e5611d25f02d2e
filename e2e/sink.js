'use strict';
// Tiny HTTP sink for the trigger check: appends every request body (one line each) to a file.
//   node e2e/sink.js <bodies-file> <port-file>
// Listens on 127.0.0.1, any free port, written to <port-file> once listening. Stops on SIGTERM/SIGINT,
// and by itself after 15 minutes in case nobody stops it.
const fs = require('node:fs');
const http = require('node:http');

const [bodiesFile, portFile] = process.argv.slice(2);
if (!bodiesFile || !portFile) {
	console.error('usage: node e2e/sink.js <bodies-file> <port-file>');
	process.exit(2);
}
fs.writeFileSync(bodiesFile, '');

const server = http.createServer((req, res) => {
	const chunks = [];
	req.on('data', (c) => chunks.push(c));
	req.on('end', () => {
		const text = Buffer.concat(chunks).toString('utf8').replace(/\s*\n\s*/g, ' ').trim();
		if (req.method === 'POST') fs.appendFileSync(bodiesFile, `${text}\n`);
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"ok":true}');
	});
});
server.listen(0, '127.0.0.1', () => {
	fs.writeFileSync(portFile, String(server.address().port));
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setTimeout(() => process.exit(0), 15 * 60 * 1000).unref();
