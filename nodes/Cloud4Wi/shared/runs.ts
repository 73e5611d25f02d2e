import type {
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import { cloud4WiBaseUrl, tokenOf } from '../../../credentials/Cloud4WiApi.credentials';
import type { Learned } from './limiter';
import { Limiter } from './limiter';
import { timing } from './timing';

/** A node run (an execution of the node, a poll, a dropdown load) and the Cloud4Wi account it shares with others. */

export type Cloud4WiContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** Default of the Timeout option: a page of 10,000 records arrives well within it. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Settings of one node run. */
export interface RunSettings {
	timeoutMs: number;
	/** Epoch ms after which no request starts or goes on (a poll's budget). */
	deadline?: number;
	/** Items whose requests must not leave any more (a node run stopping at a failed item). */
	dropped?: (itemIndex: number) => boolean;
}

/** A token a renewal gave, and whether a login gave it (then, until it works, a refusal is about rights, not age). */
export interface Renewed {
	token: string;
	fromLogin: boolean;
}

/** One Cloud4Wi account in this process (credential, base URL, client key): shared by every run that uses it. */
interface Account {
	limiter: Limiter;
	/** Requests answered so far (not 429, not 5xx): a 429 after others were answered is Cloud4Wi's pace (transport). */
	answered: number;
	/** The newest token this process knows of. */
	token: string;
	/** The token being found for every request that needs one: the stored one, else a login. */
	renewing?: Promise<Renewed>;
}

/** One node run (an execution of the node, a poll, a dropdown load): the credential is read once for all its requests. */
export interface Run {
	settings: RunSettings;
	credentials: ICredentialDataDecryptedObject;
	baseUrl: string;
	account: Account;
	token: string;
	/** `token` came from a login during this run and has not worked yet. */
	fresh: boolean;
	/** Tokens refused or revoked in this run: never sent again, and masked wherever an answer quotes them. */
	refused: Set<string>;
	loginFailure?: string;
	/** Waited so far for logins refused for the rate limit: like a request's, at most a minute in all. */
	loginWaitedMs: number;
}

const accounts = new Map<string, Account>();
const runs = new WeakMap<object, Promise<Run>>();

/** Where a workflow keeps what the limiter learned, per credential: the account's limit outlives this process. */
const LIMITS_KEY = 'cloud4WiLimits';
type StoredLimit = Learned & { baseUrl: string };

function storedLimits(ctx: Cloud4WiContext): Record<string, StoredLimit | undefined> | undefined {
	try {
		const stored = ctx.getWorkflowStaticData('global')[LIMITS_KEY];
		return stored && typeof stored === 'object' ? (stored as Record<string, StoredLimit | undefined>) : undefined;
	} catch {
		return undefined; // a context without workflow data
	}
}

async function openRun(ctx: Cloud4WiContext, settings: RunSettings): Promise<Run> {
	const credentials = await ctx.getCredentials('cloud4WiApi');
	const baseUrl = cloud4WiBaseUrl(credentials);
	const credentialId = ctx.getNode().credentials?.cloud4WiApi?.id ?? '';
	const key = `${credentialId}\n${baseUrl}\n${String(credentials.clientKey ?? '')}`;
	let account = accounts.get(key);
	if (!account) {
		// A new process (a queue worker, `n8n execute`, a restart) starts at the limit an earlier one found.
		const stored = credentialId ? storedLimits(ctx)?.[credentialId] : undefined;
		account = { limiter: new Limiter(stored?.baseUrl === baseUrl ? stored : undefined), answered: 0, token: '' };
		accounts.set(key, account);
	}
	return {
		settings,
		credentials,
		baseUrl,
		account,
		token: tokenOf(credentials),
		fresh: false,
		refused: new Set(),
		loginWaitedMs: 0,
	};
}

/** Starts a node run with its settings (runs not started so use the defaults); the credential is read on first use. */
export function startRun(ctx: Cloud4WiContext, settings: Partial<RunSettings>): Promise<Run> {
	const run = openRun(ctx, { timeoutMs: timing.answerMs, ...settings });
	run.catch(() => {}); // a failed read is reported by the request that awaits it
	runs.set(ctx, run);
	return run;
}

export function runOf(ctx: Cloud4WiContext): Promise<Run> {
	return runs.get(ctx) ?? startRun(ctx, {});
}

/** Keeps what the account's limiter learned in the workflow, for the next process that runs it (written only on change). */
export async function rememberLimits(ctx: IExecuteFunctions): Promise<void> {
	const run = await runOf(ctx).catch(() => undefined);
	const learned = run?.account.limiter.learned();
	const credentialId = ctx.getNode().credentials?.cloud4WiApi?.id;
	if (!run || !learned || !credentialId) return;
	const entry: StoredLimit = { baseUrl: run.baseUrl, ...learned };
	const stored = storedLimits(ctx)?.[credentialId];
	if (stored && (Object.keys(entry) as Array<keyof StoredLimit>).every((k) => stored[k] === entry[k])) return;
	try {
		ctx.getWorkflowStaticData('global')[LIMITS_KEY] = { ...storedLimits(ctx), [credentialId]: entry };
	} catch {
		// a context without workflow data: the limit stays known to this process only
	}
}

/** The credential as read at the start of this run (no read or decryption per item). */
export async function credentialsOf(ctx: Cloud4WiContext): Promise<ICredentialDataDecryptedObject> {
	return (await runOf(ctx)).credentials;
}

/** After a logout: the token is dead, the next request logs in. */
export async function forgetToken(ctx: Cloud4WiContext): Promise<void> {
	const run = await runOf(ctx);
	run.refused.add(run.token);
	if (run.account.token === run.token) run.account.token = '';
	run.token = '';
}
