#!/usr/bin/env node
'use strict';
// Starts the Cloud4Wi sandbox for demos and manual testing:
//   node test/sandbox/cli.js [--port 8787] [--contacts 500] [--token-ttl 86400] [--expired-status 403] [--seed 1]

const { createSandbox, DEFAULTS } = require('./index');

const USAGE = `Usage: node test/sandbox/cli.js [options]
  --port <n>             port on 127.0.0.1 (default 8787; 0 = any free port)
  --contacts <n>         seeded contacts (default ${DEFAULTS.contacts})
  --events <n>           seeded events (default ${DEFAULTS.events})
  --token-ttl <seconds>  token lifetime (default ${DEFAULTS.tokenTtlMs / 1000})
  --expired-status <n>   401 or 403 for an invalid or expired token (default ${DEFAULTS.expiredStatus})
  --seed <n>             demo data seed (default ${DEFAULTS.seed})
  --latency-ms <n>       every API answer waits this long (default 0)
  --latency-jitter-ms <n> and a random 0 to n ms more (default 0)
  --max-in-flight <n>    above this many requests being served, answer 429 at once (default 0: no limit)
  --max-per-second <n>   above this many requests accepted in the last second, answer 429 at once (default 0: no limit)
  --retry-after <s>      Retry-After of those 429s, seconds (default ${DEFAULTS.retryAfterS})
  --refusal-latency-ms <n> those 429s leave after n ms (default 0: at once)
  --slow-refusals true   those 429s take as long as an answer and are counted in flight meanwhile
  --cut-answers-percent <n> cut the connection before the answer of n % of the requests served (default 0)
  --help                 this text`;

// flag -> [option name, conversion from the command-line value]
const FLAGS = {
	'--port': ['port', Number],
	'--contacts': ['contacts', Number],
	'--events': ['events', Number],
	'--token-ttl': ['tokenTtlMs', (value) => Number(value) * 1000],
	'--expired-status': ['expiredStatus', Number],
	'--seed': ['seed', Number],
	'--latency-ms': ['latencyMs', Number],
	'--latency-jitter-ms': ['latencyJitterMs', Number],
	'--max-in-flight': ['maxInFlight', Number],
	'--max-per-second': ['maxPerSecond', Number],
	'--retry-after': ['retryAfterS', Number],
	'--refusal-latency-ms': ['refusalLatencyMs', Number],
	'--slow-refusals': ['slowRefusals', (value) => value === 'true'],
	'--cut-answers-percent': ['cutAnswersPercent', Number],
};

function parseArgs(argv) {
	const options = { port: 8787 };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--help' || arg === '-h') {
			console.log(USAGE);
			process.exit(0);
		}
		const [flag, inline] = arg.split('=', 2);
		const spec = FLAGS[flag];
		const value = inline ?? argv[++i];
		if (!spec || value === undefined) throw new Error(`Unknown or incomplete option: ${arg}\n\n${USAGE}`);
		const [name, convert] = spec;
		options[name] = convert(value);
		if (Number.isNaN(options[name])) throw new Error(`${flag} needs a number, got '${value}'`);
	}
	return options;
}

const ADMIN_ENDPOINTS = [
	['GET', '/__admin/state', 'counts, logins, clock'],
	['GET', '/__admin/requests', 'logged API requests'],
	['DELETE', '/__admin/requests', 'clear the log'],
	['POST', '/__admin/events', 'inject events: [{ "type": "signup", "visibleAfterMs": 5000 }]'],
	['POST', '/__admin/faults', 'inject a fault: { "path": "/events", "status": 429, "retryAfter": 2 }'],
	['DELETE', '/__admin/faults', 'remove all faults'],
	['POST', '/__admin/tokens/expire', 'expire every issued token'],
	['POST', '/__admin/expired-status', '{ "status": 401 } or { "status": 403 }'],
	['GET', '/__admin/clock', 'sandbox time'],
	['POST', '/__admin/clock', '{ "set": ms | ISO } or { "advance": ms }'],
];

async function main() {
	const options = parseArgs(process.argv.slice(2));
	const sandbox = await createSandbox(options);
	const { data } = sandbox;
	console.log(`Cloud4Wi sandbox listening on ${sandbox.url}

  Base URL         ${sandbox.url}
  Client key       ${sandbox.credentials.clientKey}
  Client secret    ${sandbox.credentials.clientSecret}
  Organization id  ${sandbox.organizationId}

  Data: ${data.contacts.length} contacts, ${data.events.length} events, ${data.connections.length} WiFi connections,
        ${data.hotspots.length} hotspots, ${data.locations.length} locations, ${data.segments.length} segments

Admin endpoints (no auth):
${ADMIN_ENDPOINTS.map(([method, path, what]) => `  ${method.padEnd(7)}${sandbox.url}${path.padEnd(26)}${what}`).join('\n')}

Press Ctrl+C to stop.`);

	let stopping = false;
	const stop = async (signal) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: closing the sandbox`);
		await sandbox.close();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop('SIGINT'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
	console.error(error.code === 'EADDRINUSE' ? `Port already in use: ${error.message}` : error.message);
	process.exit(1);
});
