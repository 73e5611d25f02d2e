import http from 'node:http';

import { CREDENTIAL_ID } from '../harness/cloud4wi';
import { scaleTimeLimits, testCredential } from '../harness/engine';
import { storeFor } from '../harness/stand-in';

// At 1/20 of every time limit: the login's 30 s is 1.5 s, the service answers after 1.4 s (its 28 s).
const SCALE = 1 / 20;
beforeAll(() => scaleTimeLimits(SCALE));
afterAll(() => scaleTimeLimits(1));

let server: http.Server;
afterEach(async () => {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('the Test button against a login that answers 503 (Retry-After: 10) after 28 s ends within a login time', async () => {
	server = http.createServer((_req, res) => {
		setTimeout(() => {
			res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '10' });
			res.end(JSON.stringify({ message: 'busy' }));
		}, 28_000 * SCALE);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const store = storeFor(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
	const started = Date.now();
	const result = await testCredential(store, CREDENTIAL_ID);
	const took = Date.now() - started;
	expect(result.status).toBe('Error');
	expect(took).toBeLessThan(45_000 * SCALE);
}, 20_000);
