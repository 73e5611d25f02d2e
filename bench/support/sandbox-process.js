'use strict';
// The sandbox in a child process, so the bench process's memory is n8n's and the node's alone.
// Started by remote.ts with the sandbox options as JSON in argv[2]; driven over IPC.

const { createSandbox } = require('../../test/sandbox');

async function main() {
	const sb = await createSandbox(JSON.parse(process.argv[2] ?? '{}'));
	const ops = {
		/** `count` events of the given kinds (round robin), createdAt = startMs + i * stepMs. */
		inject: ({ count, types, startMs, stepMs = 0, distinctContacts = false }) => {
			const specs = Array.from({ length: count }, (_, i) => ({
				type: types[i % types.length],
				createdAt: startMs + i * stepMs,
				...(distinctContacts ? { customerId: sb.data.contacts.cidOf(i) } : {}),
			}));
			return sb.injectEvents(specs).length;
		},
		now: () => sb.clock.now(),
		advance: ({ ms }) => sb.clock.advance(ms),
		cids: () => sb.data.contacts.map((c) => c.cid),
		requests: () => sb.requests.map(({ method, path, status, query, at }) => ({ method, path, status, query, at })),
		clearRequests: () => sb.clearRequests(),
		expireTokens: () => sb.expireTokens(),
		addFault: (fault) => sb.addFault(fault),
		rateLimited: () => sb.rateLimited,
		setLoad: (load) => sb.setLoad(load),
		logins: () => sb.logins,
		/** CPU time of the sandbox process so far, ms: what the fake server itself cost. */
		cpuMs: () => {
			const { user, system } = process.cpuUsage();
			return (user + system) / 1000;
		},
	};
	process.on('message', ({ id, op, args }) => {
		try {
			process.send({ id, result: ops[op](args ?? {}) });
		} catch (error) {
			process.send({ id, error: String(error?.stack ?? error) });
		}
	});
	process.on('disconnect', () => void sb.close().then(() => process.exit(0)));
	process.send({ ready: { url: sb.url, credentials: sb.credentials, organizationId: sb.organizationId } });
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
