import http from 'node:http';
import type { IDataObject } from 'n8n-workflow';

import { triggerWorkflow } from '../harness/cloud4wi';
import { buildWorkflow, pollOnce } from '../harness/engine';
import { storeFor } from '../harness/stand-in';

const ORG = 'org-1';
let server: http.Server;
afterEach(async () => {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

test("a slow events page, then 20 contact lookups: the poll ends inside n8n's budget", async () => {
	const now = Date.now();
	const events: IDataObject[] = Array.from({ length: 20 }, (_, i) => ({
		organizationId: ORG,
		customerId: `c${i}`,
		event: { type: 'signup', id: `e${i}`, signup: { source: 'wifi' } },
		where: { locationId: 'loc-1' },
		when: { createdAt: new Date(now - 60_000 + i).toISOString() },
	}));
	const lookups: number[] = [];
	server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://x');
		const reply = (body: unknown) => {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		if (url.pathname === `/v1/organizations/${ORG}/events`) {
			// A slow answer, well inside the 30 s Timeout.
			setTimeout(() => reply({ generated: new Date().toISOString(), count: events.length, events }), 16_000);
			return;
		}
		if (url.pathname.startsWith('/v2/customers/')) {
			lookups.push(Date.now());
			reply({ customer: { cid: url.pathname.split('/').pop(), firstName: 'N' } });
			return;
		}
		res.writeHead(404).end();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
	// A token stored for this address: no login, so the first page's time is a round trip.
	const store = storeFor(baseUrl, { sessionBaseUrl: baseUrl, sessionToken: 'tok-stored' });
	const workflow = buildWorkflow(
		triggerWorkflow({
			events: [],
			options: { startFrom: 'date', startDate: new Date(now - 3_600_000).toISOString(), includeContact: true },
		}),
	);
	const BUDGET_MS = 20_000;
	const started = Date.now();
	await pollOnce(workflow, store, 'Trigger', 'trigger', BUDGET_MS).catch(() => undefined);
	const took = Date.now() - started;
	expect(took).toBeLessThanOrEqual(BUDGET_MS);
	expect(lookups.length).toBeGreaterThan(0); // the events page was read and lookups began: the case really ran
}, 60_000);
