// The trigger suite's events (e2e/trigger.e2e.ts): injects event batches through the sandbox's admin door and checks
// what reached the sink. The trigger under test listens for signup and visit only.
//
//   inject(sandboxUrl, 'a' | 'b' | 'c', dir)
//       POSTs a batch to /__admin/events and writes <dir>/batch-<a|b|c>.json (what was injected, with ids); resolves
//       a one-line summary.
//   triggerChecks(dir, stage, previousLogins?)
//       stage 1: after the first poll that followed batch a; 2: after the poll that followed batch b and
//       the token expiry; final: after the late event became visible and was polled; restart: after n8n
//       was stopped, batch c injected and n8n started again; restart-poll: one poll later. Reads
//       <dir>/batch-*.json, <dir>/sink.bodies (one JSON body per line), <dir>/requests-<stage>.json and
//       <dir>/state-<stage>.json. Returns one { name, problems, detail } per check (problems empty when it
//       passed); the names depend on the stage only, so an empty folder gives them before anything runs.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Run data, request logs and events as JSON: read loosely, checked field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** One check: passed when `problems` is empty. */
export interface CheckResult {
	name: string;
	problems: string[];
	detail: string;
}

interface Injected {
	id: string;
	type: string;
	createdAt: string;
	visibleAt: number;
	wanted: boolean;
	late: boolean;
	backdated: boolean;
}

export const WANTED = ['signup', 'visit'];
/** The late event becomes visible to the API this long after it was created (it must arrive all the same). */
const LATE_MS = 70_000;

async function admin(url: string, method: string, route: string, body?: unknown): Promise<Json> {
	const response = await fetch(`${url}${route}`, {
		method,
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} ${route}: HTTP ${response.status} ${text}`);
	return JSON.parse(text);
}

const readJson = (file: string, fallback: Json): Json => {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return fallback;
	}
};

export async function inject(url: string, batch: 'a' | 'b' | 'c', dir: string): Promise<string> {
	const { now } = await admin(url, 'GET', '/__admin/clock');
	let specs: Json[];
	let shared: string | undefined;
	if (batch === 'a') {
		// Two wanted events and one unwanted share one createdAt to the millisecond.
		shared = new Date(now).toISOString();
		specs = [
			{ type: 'signup' },
			{ type: 'visit' },
			{ type: 'login' },
			{ type: 'promo' },
			{ type: 'click_email' },
			{ type: 'geo_visit' },
			{ type: 'signup', createdAt: shared },
			{ type: 'visit', createdAt: shared },
			{ type: 'login', createdAt: shared },
			{ type: 'signup', visibleAfterMs: LATE_MS, late: true },
		];
	} else if (batch === 'b') {
		// Injected a poll later; the last one carries the createdAt of batch a's pair, so it is "old" when it
		// appears: only a trigger that looks back (and keeps ids, not a time cursor) gets it once.
		shared = readJson(path.join(dir, 'batch-a.json'), {}).sharedCreatedAt;
		if (!shared) throw new Error('batch b needs batch-a.json');
		specs = [
			{ type: 'signup' },
			{ type: 'visit' },
			{ type: 'login' },
			{ type: 'send_sms' },
			{ type: 'visit', createdAt: shared, backdated: true },
		];
	} else if (batch === 'c') {
		// Created while n8n is stopped.
		specs = [{ type: 'signup' }, { type: 'visit' }, { type: 'login' }];
	} else {
		throw new Error(`unknown batch ${batch}`);
	}
	// eslint-disable-next-line @typescript-eslint/no-unused-vars -- named only to leave them out of what is sent
	const body = specs.map(({ late, backdated, ...spec }) => spec);
	const { events } = await admin(url, 'POST', '/__admin/events', body);
	if (!Array.isArray(events) || events.length !== specs.length)
		throw new Error(`injected ${events?.length} events, sent ${specs.length}`);
	const record = {
		batch,
		injectedAt: now,
		sharedCreatedAt: shared,
		events: events.map((event, i) => {
			const createdAt = Date.parse(event.when.createdAt);
			return {
				id: event.event.id,
				type: event.event.type,
				createdAt: event.when.createdAt,
				visibleAt: createdAt + (specs[i].visibleAfterMs ?? 0),
				wanted: WANTED.includes(event.event.type),
				late: Boolean(specs[i].late),
				backdated: Boolean(specs[i].backdated),
			};
		}),
	};
	fs.writeFileSync(path.join(dir, `batch-${batch}.json`), `${JSON.stringify(record, null, 2)}\n`);
	const summary = record.events.map(
		(e) =>
			`${e.type}${e.late ? '(late)' : ''}${e.backdated ? '(backdated)' : ''}${e.createdAt === shared && !e.backdated ? '(shared createdAt)' : ''}`,
	);
	const line = `batch ${batch}: ${summary.join(', ')}`;
	// For the caller: when the late event becomes visible (ms), so it can wait for a poll after that.
	const late = record.events.find((e) => e.late);
	if (late) fs.writeFileSync(path.join(dir, 'late-visible-at'), String(late.visibleAt));
	return line;
}

export function triggerChecks(dir: string, stage: string, previousLogins?: number): CheckResult[] {
	const results: CheckResult[] = [];
	const report = (name: string, problems: string[], detail: string) => results.push({ name, problems, detail });
	const label =
		(
			{
				1: 'first poll after batch a',
				2: 'poll after token expiry + batch b',
				final: 'poll after the late event showed',
				restart: 'restart (batch c made while n8n was down)',
				'restart-poll': 'first poll after the restart',
			} as Record<string, string>
		)[stage] ?? stage;
	const lateDue = !['1', '2'].includes(String(stage));

	const injected: Injected[] = ['a', 'b', 'c'].flatMap(
		(b) => readJson(path.join(dir, `batch-${b}.json`), { events: [] }).events,
	);
	const byId = new Map(injected.map((e) => [e.id, e]));
	const bodies = fs.existsSync(path.join(dir, 'sink.bodies'))
		? fs.readFileSync(path.join(dir, 'sink.bodies'), 'utf8').split('\n').filter(Boolean)
		: [];
	const delivered: Json[] = [];
	const malformed: string[] = [];
	for (const line of bodies) {
		try {
			delivered.push(JSON.parse(line));
		} catch {
			malformed.push(line.slice(0, 80));
		}
	}
	const ids = delivered.map((d) => d?.event?.id);

	report(
		`trigger ${label}: events were injected`,
		injected.length ? [] : ['no batch-*.json in the work folder'],
		`${injected.length} events`,
	);
	const requiredNow = injected.filter((e) => e.wanted && (lateDue || !e.late));
	const optional = new Set(injected.filter((e) => e.wanted && e.late && !lateDue).map((e) => e.id));
	const counts = new Map<string, number>();
	for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);

	// 1. every wanted event so far arrived
	const missing = requiredNow
		.filter((e) => !counts.has(e.id))
		.map((e) => `${e.type} ${e.id}${e.late ? ' (late)' : ''}${e.backdated ? ' (backdated)' : ''}`);
	report(
		`trigger ${label}: every signup/visit injected so far arrived`,
		missing.length ? [`missing ${missing.join(', ')}`] : [],
		`${requiredNow.length} expected, ${new Set(ids).size} distinct delivered`,
	);

	// 2. nothing else arrived
	const unexpected = [...counts.keys()].filter((id) => !requiredNow.some((e) => e.id === id) && !optional.has(id));
	const describe = (id: string) => {
		const e = byId.get(id);
		return e ? `${e.type} ${id}` : `unknown ${id}`;
	};
	const problems: string[] = [];
	if (unexpected.length) problems.push(`unexpected ${unexpected.map(describe).join(', ')}`);
	if (malformed.length) problems.push(`bodies that are not JSON: ${malformed.join(' | ')}`);
	const kinds = [...new Set(delivered.map((d) => d?.event?.type))];
	report(
		`trigger ${label}: nothing else arrived (no login, promo, click_email, geo_visit, send_sms)`,
		problems,
		`kinds delivered: ${kinds.join(', ') || 'none'}`,
	);

	// 3. each once
	const duplicates = [...counts.entries()].filter(([, n]) => n > 1).map(([id, n]) => `${describe(id)} x${n}`);
	report(
		`trigger ${label}: each event delivered once`,
		duplicates.length ? [`duplicates ${duplicates.join(', ')}`] : [],
		`${ids.length} bodies, ${counts.size} distinct`,
	);

	// 4. shape of what arrived (the live event as the API sends it)
	if (String(stage) === '1') {
		const bad = delivered.filter((d) => !(d?.event?.id && d?.event?.type && d?.when?.createdAt && d?.customerId));
		report(
			'trigger output items are whole events (customerId, event.id, event.type, when.createdAt)',
			bad.length ? [`${bad.length} bodies lack them, e.g. ${JSON.stringify(bad[0]).slice(0, 160)}`] : [],
			`${delivered.length} bodies checked`,
		);
	}

	// 5. requests and logins during this stage
	const requests: Json[] = readJson(path.join(dir, `requests-${stage}.json`), { requests: [] }).requests ?? [];
	const state = readJson(path.join(dir, `state-${stage}.json`), {});
	const eventReads = requests.filter((r) => r.method === 'GET' && /\/v1\/organizations\/[^/]+\/events$/.test(r.path));
	const logins = requests.filter((r) => r.method === 'POST' && r.path === '/v1/sts/login/services');
	const sequence: string[] = requests.map(
		(r) => `${r.method} ${r.path.replace(/^\/v1\/organizations\/[^/]+/, '/v1/organizations/{org}')} ${r.status}`,
	);
	if (String(stage) === '2') {
		const p: string[] = [];
		const refused = sequence.findIndex((s) => /^GET \/v1\/organizations\/\{org\}\/events (401|403)$/.test(s));
		const login = sequence.findIndex((s, i) => i > refused && s === 'POST /v1/sts/login/services 200');
		const retried = sequence.findIndex((s, i) => i > login && s === 'GET /v1/organizations/{org}/events 200');
		if (refused < 0 || login < 0 || retried < 0)
			p.push(`expected events read refused -> login -> events read 200, saw [${sequence.join(', ')}]`);
		if (previousLogins !== undefined && state.logins !== previousLogins + 1)
			p.push(`logins went from ${previousLogins} to ${state.logins}, expected exactly one more`);
		report('trigger after token expiry: refused once, logged in once, delivery went on', p, `[${sequence.join(', ')}]`);
	} else {
		// The credential's first login came at activation (reading Cloud4Wi's clock): every poll after it reuses the stored token.
		const p: string[] = [];
		if (logins.length) p.push(`${logins.length} logins, expected none: the stored token should have been reused`);
		if (previousLogins !== undefined && state.logins !== previousLogins)
			p.push(`logins went from ${previousLogins} to ${state.logins}`);
		const filtered = eventReads.every((r) => r.query?.events === WANTED.join(',') && r.query?.dateStart);
		if (!eventReads.length && stage !== 'restart') p.push('no events read in this stage');
		else if (!filtered)
			p.push(`event reads without the kind filter or dateStart: ${JSON.stringify(eventReads[0].query)}`);
		const failedReads = requests
			.filter((r) => r.status >= 400 || r.status === 0)
			.map((r) => `${r.method} ${r.path} ${r.status}`);
		if (failedReads.length) p.push(`failed requests: ${failedReads.join(', ')}`);
		report(
			`trigger ${label}: stored token reused (no login), kinds filtered by the server`,
			p,
			`${eventReads.length} event reads with events=${WANTED.join(',')}, ${requests.length} requests`,
		);
	}
	return results;
}
