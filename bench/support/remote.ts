/**
 * The sandbox (test/sandbox) in a child process, plus a credential pointing at it. Out of process so that
 * process.memoryUsage() here counts what n8n and the node hold, not the fake server's JSON and snapshots.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

import type { SandboxCredentials, SandboxLoad, SandboxOptions } from '../../test/sandbox';
import { DEFAULTS } from '../../test/sandbox';
import { credentialFor } from '../../test/harness/cloud4wi';
import type { CredentialStore } from '../../test/harness/engine';

export interface SeenRequest {
	method: string;
	path: string;
	status: number;
	query: Record<string, string>;
	/** When the sandbox received it (ms since epoch, its clock). */
	at: number;
}

/**
 * The sandbox's own load with no limit, answering in `latencyMs`. A sandbox keeps the load a run before set, so a bench
 * row spreads its limit over this one.
 */
export function noLimit(latencyMs: number): SandboxLoad {
	const { latencyJitterMs, maxInFlight, maxPerSecond, windowS, retryAfterS, refusalLatencyMs, slowRefusals } = DEFAULTS;
	const { cutAnswersPercent } = DEFAULTS;
	return {
		latencyMs,
		latencyJitterMs,
		maxInFlight,
		maxPerSecond,
		windowS,
		retryAfterS,
		refusalLatencyMs,
		slowRefusals,
		cutAnswersPercent,
	};
}

export class RemoteSandbox {
	private nextId = 0;
	private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

	private constructor(
		private readonly child: ChildProcess,
		readonly url: string,
		readonly credentials: SandboxCredentials,
		readonly organizationId: string,
	) {
		child.on('message', (message: { id?: number; result?: unknown; error?: string }) => {
			const call = message.id === undefined ? undefined : this.pending.get(message.id);
			if (!call) return;
			this.pending.delete(message.id!);
			if (message.error) call.reject(new Error(message.error));
			else call.resolve(message.result);
		});
	}

	static async start(options: SandboxOptions = {}): Promise<RemoteSandbox> {
		// Without GC flags: the child is the server, not what is measured.
		const child = fork(path.join(__dirname, 'sandbox-process.js'), [JSON.stringify({ port: 0, ...options })], {
			execArgv: [],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		const ready = await new Promise<{ url: string; credentials: SandboxCredentials; organizationId: string }>(
			(resolve, reject) => {
				child.once(
					'message',
					(message: { ready?: { url: string; credentials: SandboxCredentials; organizationId: string } }) => {
						if (message.ready) resolve(message.ready);
					},
				);
				child.once('exit', (code) => reject(new Error(`sandbox process exited with ${code}`)));
			},
		);
		return new RemoteSandbox(child, ready.url, ready.credentials, ready.organizationId);
	}

	private call<T>(op: string, args?: object): Promise<T> {
		const id = this.nextId++;
		return new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
			this.child.send({ id, op, args });
		});
	}

	/** `count` events of `types` (round robin), created from `startMs` every `stepMs`; returns how many were added. */
	inject(count: number, types: string[], startMs: number, stepMs = 0, distinctContacts = false): Promise<number> {
		return this.call('inject', { count, types, startMs, stepMs, distinctContacts });
	}

	/** Seeded contact ids, in order. */
	cids(): Promise<string[]> {
		return this.call('cids');
	}

	expireTokens(): Promise<number> {
		return this.call('expireTokens');
	}

	addFault(fault: object): Promise<void> {
		return this.call('addFault', fault);
	}

	/** Answer latency and the limits, changed while running; resolves to all of the load. */
	setLoad(load: Partial<SandboxLoad>): Promise<SandboxLoad> {
		return this.call('setLoad', load);
	}

	now(): Promise<number> {
		return this.call('now');
	}

	advance(ms: number): Promise<number> {
		return this.call('advance', { ms });
	}

	/** API requests seen since the last clear, logins included. */
	requests(): Promise<SeenRequest[]> {
		return this.call('requests');
	}

	/** CPU time the sandbox process has used so far, ms. */
	cpuMs(): Promise<number> {
		return this.call('cpuMs');
	}

	clearRequests(): Promise<void> {
		return this.call('clearRequests');
	}

	async close(): Promise<void> {
		const exited = new Promise((resolve) => this.child.once('exit', resolve));
		this.child.disconnect();
		await exited;
	}
}

/** Requests other than logins. */
export const apiRequests = (requests: SeenRequest[]) => requests.filter((r) => !r.path.startsWith('/v1/sts/login'));

export interface BenchContext {
	sb: RemoteSandbox;
	store: CredentialStore;
}

/** A sandbox process and a credential pointing at it (token empty, as a freshly created credential). */
export async function startRemoteCloud4Wi(options: SandboxOptions = {}): Promise<BenchContext> {
	const sb = await RemoteSandbox.start(options);
	return { sb, store: credentialFor(sb) };
}
