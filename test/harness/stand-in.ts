/** A tiny spec-conforming stand-in for Cloud4Wi, different from test/sandbox where the spec leaves choices open. */
import http from 'node:http';

import type { IDataObject } from 'n8n-workflow';

import type { CredentialStore } from './engine';
import { credentialFor } from './cloud4wi';

export interface InRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	body: unknown;
	rawBody: string;
	headers: http.IncomingHttpHeaders;
}
export interface Reply {
	status?: number;
	headers?: Record<string, string>;
	body?: unknown;
	raw?: string;
}
export interface StandIn {
	url: string;
	store: CredentialStore;
	requests: InRequest[];
	close(): Promise<void>;
}

export const ORG = 'org-1';
export const TOKEN = 'tok-abc123';

/** A live-shape signup event of organization ORG, created at `createdAt` as the service writes it. */
export function signupEvent(id: string, createdAt: string): IDataObject {
	return {
		organizationId: ORG,
		customerId: 'c1',
		event: { type: 'signup', id, signup: { source: 'wifi' } },
		where: { locationId: 'loc-1', locationName: 'Milano' },
		when: { createdAt, createdAtLocal: createdAt, timezone: 'UTC' },
	};
}

/** The ids of the events a poll emitted. */
export const emittedIds = (emitted: Array<{ json: IDataObject }> | null) =>
	(emitted ?? []).map((i) => String((i.json.event as IDataObject).id));

/** A credential store for a service at `url` (not necessarily a stand-in's): its key, secret and organization, `overrides` on top. */
export function storeFor(url: string, overrides: IDataObject = {}): CredentialStore {
	return credentialFor(
		{ url, credentials: { clientKey: 'key', clientSecret: 'secret-xyz', organizationId: ORG } },
		overrides,
	);
}

/** `handler` answers API requests (at once, or later); login answers 200 {token} + Authorization header unless `handler` answers it. */
export async function standIn(
	handler: (req: InRequest) => Reply | undefined | Promise<Reply | undefined>,
): Promise<StandIn> {
	const requests: InRequest[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', async () => {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			const rawBody = Buffer.concat(chunks).toString('utf8');
			let body: unknown;
			try {
				body = rawBody ? JSON.parse(rawBody) : undefined;
			} catch {
				body = rawBody;
			}
			const r: InRequest = {
				method: req.method ?? 'GET',
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				body,
				rawBody,
				headers: req.headers,
			};
			requests.push(r);
			let reply = await handler(r);
			if (res.destroyed) return; // closed while the handler waited
			if (!reply && r.path === '/v1/sts/login/services') {
				reply = { headers: { Authorization: TOKEN }, body: { token: TOKEN } };
			}
			reply ??= { status: 404, body: { message: `No such endpoint ${r.method} ${r.path}` } };
			const payload = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
			res.writeHead(reply.status ?? 200, {
				...(payload ? { 'Content-Type': 'application/json' } : {}),
				'Content-Length': Buffer.byteLength(payload),
				...reply.headers,
			});
			res.end(payload);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const port = (server.address() as { port: number }).port;
	const url = `http://127.0.0.1:${port}`;
	return {
		url,
		store: storeFor(url),
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}
