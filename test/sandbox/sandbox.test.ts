import { request, type Dispatcher } from 'undici';

import { createSandbox, DEFAULTS, type Sandbox, type SandboxOptions } from './index';

// Response bodies are whatever JSON the sandbox sent.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface Reply {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: Json;
	text: string;
}

interface CallOptions {
	token?: string;
	body?: unknown;
	query?: Record<string, string | number | boolean>;
	headers?: Record<string, string>;
}

async function call(
	sb: Sandbox,
	method: Dispatcher.HttpMethod,
	path: string,
	options: CallOptions = {},
): Promise<Reply> {
	const url = new URL(path, sb.url);
	for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, String(value));
	const headers: Record<string, string> = { ...options.headers };
	if (options.token) headers.authorization = `Bearer ${options.token}`;
	if (options.body !== undefined) headers['content-type'] = 'application/json';
	const res = await request(url, {
		method,
		headers,
		body:
			options.body === undefined
				? undefined
				: typeof options.body === 'string'
					? options.body
					: JSON.stringify(options.body),
	});
	const text = await res.body.text();
	return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
}

async function login(sb: Sandbox): Promise<string> {
	const { clientKey, clientSecret } = sb.credentials;
	const res = await call(sb, 'POST', '/v1/sts/login/services', { body: { clientKey, clientSecret } });
	expect(res.status).toBe(200);
	return res.body.token as string;
}

/** A sandbox for one describe block, with a token ready. */
function useSandbox(options: SandboxOptions = {}) {
	const ctx = {} as { sb: Sandbox; token: string };
	beforeAll(async () => {
		ctx.sb = await createSandbox({ seed: 7, ...options });
		ctx.token = await login(ctx.sb);
	});
	afterAll(async () => ctx.sb.close());
	return ctx;
}

const sortedCopy = <T>(list: T[], compare?: (a: T, b: T) => number) => [...list].sort(compare);
const isNonDecreasing = (values: string[]) => values.every((v, i) => i === 0 || values[i - 1] <= v);

describe('tokens', () => {
	const ctx = useSandbox();

	it('logs in with the demo credentials: a JWT-shaped token in the body and the Authorization header', async () => {
		const { sb } = ctx;
		const before = sb.logins;
		const res = await call(sb, 'POST', '/v1/sts/login/services', {
			body: { clientKey: sb.credentials.clientKey, clientSecret: sb.credentials.clientSecret },
		});
		expect(res.status).toBe(200);
		expect(res.headers.authorization).toBe(res.body.token);
		const parts = (res.body.token as string).split('.');
		expect(parts).toHaveLength(3);
		const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
		expect(payload.exp - payload.iat).toBe(DEFAULTS.tokenTtlMs / 1000);
		expect(await login(sb)).not.toBe(res.body.token);
		expect(sb.logins).toBe(before + 2);
	});

	it('refuses a wrong secret with 401 and no token', async () => {
		const { sb } = ctx;
		const before = sb.logins;
		const res = await call(sb, 'POST', '/v1/sts/login/services', {
			body: { clientKey: sb.credentials.clientKey, clientSecret: 'nope' },
		});
		expect(res.status).toBe(401);
		expect(res.body).toEqual({ message: 'Invalid client key or secret' });
		expect(sb.logins).toBe(before);
	});

	it('answers 409 when a login field is missing', async () => {
		const res = await call(ctx.sb, 'POST', '/v1/sts/login/services', { body: { clientKey: 'demo-key' } });
		expect(res.status).toBe(409);
		expect(res.body.message).toMatch(/clientSecret/);
	});

	it('answers 403 without a token or with an unknown one', async () => {
		const { sb } = ctx;
		const segments = `/v2/segments/organizations/${sb.organizationId}`;
		expect((await call(sb, 'GET', segments)).status).toBe(403);
		const unknown = await call(sb, 'GET', segments, { token: 'a.b.c' });
		expect(unknown.status).toBe(403);
		expect(unknown.body.message).toMatch(/invalid or expired/i);
	});

	it('expires every token on expireTokens(), in 403 and then in 401 mode', async () => {
		const { sb } = ctx;
		const token = await login(sb);
		const segments = `/v2/segments/organizations/${sb.organizationId}`;
		expect((await call(sb, 'GET', segments, { token })).status).toBe(200);
		expect(sb.expireTokens()).toBeGreaterThan(0);
		expect((await call(sb, 'GET', segments, { token })).status).toBe(403);
		sb.setExpiredStatus(401);
		expect((await call(sb, 'GET', segments, { token })).status).toBe(401);
		sb.setExpiredStatus(403);
		ctx.token = await login(sb); // fresh tokens still work
		expect((await call(sb, 'GET', segments, { token: ctx.token })).status).toBe(200);
	});

	it('revokes on logout: 200 with no content, then the token is refused and a second logout is 401', async () => {
		const { sb } = ctx;
		const token = await login(sb);
		const logout = await call(sb, 'POST', '/v1/sts/logout', { token });
		expect(logout.status).toBe(200);
		expect(logout.text).toBe('');
		expect((await call(sb, 'GET', `/v2/segments/organizations/${sb.organizationId}`, { token })).status).toBe(403);
		expect((await call(sb, 'POST', '/v1/sts/logout', { token })).status).toBe(401);
		expect((await call(sb, 'POST', '/v1/sts/logout')).status).toBe(401);
	});
});

describe('token lifetime on the sandbox clock (401 mode)', () => {
	const ctx = useSandbox({ tokenTtlMs: 60_000, expiredStatus: 401 });

	it('keeps a token for tokenTtlMs and refuses it after', async () => {
		const { sb, token } = ctx;
		const segments = `/v2/segments/organizations/${sb.organizationId}`;
		sb.clock.advance(50_000);
		expect((await call(sb, 'GET', segments, { token })).status).toBe(200);
		sb.clock.advance(11_000);
		const res = await call(sb, 'GET', segments, { token });
		expect(res.status).toBe(401);
		expect(res.body.message).toBe('Token is invalid or expired');
	});
});

describe('contacts', () => {
	const ctx = useSandbox();
	const list = (query: CallOptions['query'] = {}) =>
		call(ctx.sb, 'GET', `/v2/customers/organizations/${ctx.sb.organizationId}`, { token: ctx.token, query });

	it('scrolls through every contact with sid: sId on every page, an empty page past the end', async () => {
		const { sb } = ctx;
		const seen: string[] = [];
		const counts: number[] = [];
		let sid: string | undefined;
		for (let page = 0; page < 10; page++) {
			const res = await list(sid ? { sid, size: 70 } : { size: 70 });
			expect(res.status).toBe(200);
			expect(res.body.totalCount).toBe(300);
			expect(typeof res.body.generated).toBe('string');
			expect(res.body.count).toBe(res.body.customers.length);
			if (sid) expect(res.body.sId).toBe(sid);
			sid = res.body.sId;
			counts.push(res.body.count);
			seen.push(...res.body.customers.map((c: Json) => c.cid));
			if (res.body.count === 0) break;
		}
		expect(counts).toEqual([70, 70, 70, 70, 20, 0]);
		expect(new Set(seen).size).toBe(300);
		expect(seen).toEqual(sb.data.contacts.map((c) => c.cid));
	});

	it('defaults to 100 per page and refuses a size change during a scroll', async () => {
		const first = await list();
		expect(first.body.count).toBe(100);
		const changed = await list({ sid: first.body.sId, size: 50 });
		expect(changed.status).toBe(409);
		expect(changed.body.message).toMatch(/size/);
		const same = await list({ sid: first.body.sId, size: 100 });
		expect(same.status).toBe(200);
		expect(same.body.count).toBe(100);
	});

	it.each(['0', '10001', 'abc', '1.5'])('refuses size=%s with 409', async (size) => {
		const res = await list({ size });
		expect(res.status).toBe(409);
		expect(res.body.message).toBe('Invalid parameter size: must be between 1 and 10000');
	});

	it('refuses unparsable dates, unknown sortBy and sortReverse without sortBy', async () => {
		const badDate = await list({ createdStart: 'yesterday' });
		expect(badDate.status).toBe(409);
		expect(badDate.body.message).toMatch(/createdStart/);
		expect((await list({ createdStart: '2024-02-30' })).status).toBe(409);
		expect((await list({ sortBy: 'shoeSize' })).body.message).toMatch(/sortBy/);
		const reverse = await list({ sortReverse: true });
		expect(reverse.status).toBe(409);
		expect(reverse.body.message).toMatch(/sortReverse/);
		expect((await list({ hasEmail: 'yes' })).status).toBe(409);
	});

	it('applies filters like the data says', async () => {
		const contacts = ctx.sb.data.contacts.toArray();
		const withEmail = await list({ hasEmail: true, size: 1000 });
		expect(withEmail.body.totalCount).toBe(contacts.filter((c) => c.email).length);
		expect(withEmail.body.totalCount).toBeLessThan(300); // some contacts have no email
		expect(withEmail.body.customers.every((c: Json) => c.email)).toBe(true);

		const newsletter = await list({ 'customOptin.Newsletter': true, mktgCommunications: true, size: 1000 });
		const expected = contacts.filter(
			(c) =>
				c.policies.some((p) => p.name === 'customs.Newsletter' && p.accepted) &&
				c.policies.some((p) => p.name === 'mktgCommunications' && p.accepted),
		);
		expect(newsletter.body.customers.map((c: Json) => c.cid)).toEqual(expected.map((c) => c.cid));

		const someone = contacts.find((c) => c.email && c.phone)!;
		const byEmail = await list({ email: someone.email!.toUpperCase() });
		expect(byEmail.body.customers.map((c: Json) => c.cid)).toEqual([someone.cid]);
		const byPhone = await list({ phoneNumber: someone.phone! });
		expect(byPhone.body.customers.map((c: Json) => c.cid)).toEqual([someone.cid]);

		const segment = ctx.sb.data.segments[1];
		const inSegment = await list({ segmentCids: `${segment.id},unknown`, size: 1000 });
		expect(inSegment.body.totalCount).toBe(segment.audience);

		const middle = contacts[150].created;
		const recent = await list({ createdStart: middle, size: 1000 });
		expect(recent.body.totalCount).toBe(contacts.filter((c) => c.created >= middle).length);
	});

	it('sorts by a spec field, in reverse on request, nulls last', async () => {
		const asc = await list({ sortBy: 'lastName', size: 300 });
		const names: string[] = asc.body.customers.map((c: Json) => c.lastName);
		expect(names).toEqual(sortedCopy(names, (a, b) => (a < b ? -1 : a > b ? 1 : 0)));
		const desc = await list({ sortBy: 'lastName', sortReverse: true, size: 300 });
		expect(desc.body.customers[0].lastName).toBe(names[names.length - 1]);
		const visits = await list({ sortBy: 'totalVisits', sortReverse: true, size: 5 });
		const top = Math.max(...ctx.sb.data.contacts.map((c) => c.metrics.countTotalVisits));
		expect(visits.body.customers[0].metrics.countTotalVisits).toBe(top);
	});

	it('returns full Contact records', async () => {
		const { sb, token } = ctx;
		const contact = sb.data.contacts[0]!;
		const res = await call(sb, 'GET', `/v2/customers/${contact.cid}`, { token });
		expect(res.status).toBe(200);
		expect(res.body.customer).toEqual(contact);
		expect(contact.phone ?? '+1').toMatch(/^\+\d{8,15}$/);
		expect(contact.policies.map((p) => p.name)).toEqual(
			expect.arrayContaining(['privacy', 'termsOfUse', 'mktgCommunications', 'ageVerification']),
		);
		expect(sb.data.contacts.some((c) => c.policies.some((p) => p.name === 'customs.Newsletter'))).toBe(true);
		expect(sb.data.contacts.some((c) => !c.email) && sb.data.contacts.some((c) => !c.phone)).toBe(true);
		expect(Object.keys(contact.metrics)).toHaveLength(15);
	});

	it('answers 404 naming an unknown organization or contact', async () => {
		const { sb, token } = ctx;
		const org = await call(sb, 'GET', '/v2/customers/organizations/org-nope', { token });
		expect(org.status).toBe(404);
		expect(org.body.message).toContain('org-nope');
		for (const path of ['', '/accountings', '/activities', '/devices', '/events']) {
			const res = await call(sb, 'GET', `/v2/customers/deadbeefdeadbeefdeadbeef${path}`, { token });
			expect(res.status).toBe(404);
			expect(res.body.message).toContain('deadbeefdeadbeefdeadbeef');
		}
	});

	it('updates opt-ins: 207 and only the applied keys when one is unknown, 200 when all are known', async () => {
		const { sb, token } = ctx;
		const contact = sb.data.contacts[3]!;
		const path = `/v1/customers/${contact.cid}/policies`;
		const partial = await call(sb, 'PUT', path, {
			token,
			body: {
				policies: [
					{ policyKey: 'mktgCommunications', accepted: true },
					{ policyKey: 'customs.Newsletter', accepted: false },
					{ policyKey: 'customs.NoSuchThing', accepted: true },
				],
			},
		});
		expect(partial.status).toBe(207);
		expect(partial.body).toEqual({ mktgCommunications: true, 'customs.Newsletter': false });

		const full = await call(sb, 'PUT', path, {
			token,
			body: { policies: [{ policyKey: 'ageVerification', accepted: false }] },
		});
		expect(full.status).toBe(200);
		expect(full.body).toEqual({ ageVerification: false });

		const after = await call(sb, 'GET', `/v2/customers/${contact.cid}`, { token });
		const policies = Object.fromEntries(after.body.customer.policies.map((p: Json) => [p.name, p.accepted]));
		expect(policies).toMatchObject({ mktgCommunications: true, 'customs.Newsletter': false, ageVerification: false });
		expect(policies['customs.NoSuchThing']).toBeUndefined();
	});

	it('refuses a missing or malformed policies body with 409', async () => {
		const { sb, token } = ctx;
		const path = `/v1/customers/${sb.data.contacts[3]!.cid}/policies`;
		expect((await call(sb, 'PUT', path, { token, body: {} })).body.message).toMatch(/policies/);
		expect(
			(await call(sb, 'PUT', path, { token, body: { policies: [{ policyKey: 'privacy', accepted: 'yes' }] } })).status,
		).toBe(409);
		expect((await call(sb, 'PUT', path, { token, body: '{not json' })).status).toBe(409);
	});

	it('creates a six-digit access code', async () => {
		const res = await call(ctx.sb, 'POST', `/v2/customers/${ctx.sb.data.contacts[1]!.cid}/otp`, { token: ctx.token });
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ status: 'ok', otp: expect.stringMatching(/^\d{6}$/) });
	});

	it('pages the WiFi connections of a contact in the contact-level shape', async () => {
		const { sb, token } = ctx;
		const cid = sb.data.contacts[0]!.cid; // the seeding favours the first contacts
		const total = sb.data.connections.filter((c) => c.customerId === cid).length;
		expect(total).toBeGreaterThan(3);
		let sid: string | undefined;
		const got: Json[] = [];
		for (;;) {
			const res = await call(sb, 'GET', `/v2/customers/${cid}/accountings`, {
				token,
				query: sid ? { sid, size: 3 } : { size: 3 },
			});
			expect(res.status).toBe(200);
			sid = res.body.sId;
			got.push(...res.body.connections);
			if (res.body.count === 0) break;
		}
		expect(got).toHaveLength(total);
		expect(got[0]).toHaveProperty('apName');
		expect(got[0]).toHaveProperty('apId');
		expect(got[0]).not.toHaveProperty('customerId');
		expect(got[0]).not.toHaveProperty('hotspotId');
	});

	it('lists devices, activities and location events of a contact', async () => {
		const { sb, token } = ctx;
		const cid = sb.data.contacts[0]!.cid;
		const devices = await call(sb, 'GET', `/v2/customers/${cid}/devices`, { token });
		expect(devices.body.count).toBeGreaterThan(0);
		expect(devices.body.devices[0]).toMatchObject({
			macAddress: expect.stringMatching(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/),
			connections: expect.any(Number),
		});
		const activities = await call(sb, 'GET', `/v2/customers/${cid}/activities`, { token });
		expect(activities.status).toBe(200);
		expect(activities.body.count).toBe(activities.body.activities.length);
		const events = await call(sb, 'GET', `/v2/customers/${cid}/events`, { token });
		expect(events.body.events.some((e: Json) => e.type === 'wifi_connection')).toBe(true);
		expect(events.body.events[0]).toMatchObject({ date: expect.any(String), duration: expect.any(Number) });
	});

	it('deletes a contact', async () => {
		const { sb, token } = ctx;
		const cid = sb.data.contacts[299]!.cid;
		const res = await call(sb, 'DELETE', `/v1/customers/${cid}`, { token });
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ status: 'deleted', generated: expect.any(String) });
		expect((await call(sb, 'GET', `/v2/customers/${cid}`, { token })).status).toBe(404);
		expect((await call(sb, 'DELETE', `/v1/customers/${cid}`, { token })).status).toBe(404);
		expect((await list()).body.totalCount).toBe(299);
		expect(sb.data.contacts.length).toBe(299);
	});
});

describe('scroll expiry', () => {
	const ctx = useSandbox({ scrollTtlMs: 120_000 });

	it.each([
		['contacts', (org: string) => `/v2/customers/organizations/${org}`, 'sid', 'sId', {}],
		['events', (org: string) => `/v1/organizations/${org}/events`, 'scrollId', 'scrollId', { enableScroll: true }],
		['WiFi connections', (org: string) => `/v2/organizations/${org}/accountings`, 'sid', 'sId', {}],
	] as const)('expires a %s scroll 2 minutes after its last use', async (_name, path, param, field, first) => {
		const { sb, token } = ctx;
		const url = path(sb.organizationId);
		const start = await call(sb, 'GET', url, { token, query: { size: 10, ...first } });
		const id = start.body[field] as string;
		sb.clock.advance(100_000);
		expect((await call(sb, 'GET', url, { token, query: { [param]: id } })).status).toBe(200); // use refreshes it
		sb.clock.advance(100_000);
		expect((await call(sb, 'GET', url, { token, query: { [param]: id } })).status).toBe(200);
		sb.clock.advance(121_000);
		const expired = await call(sb, 'GET', url, { token, query: { [param]: id } });
		expect(expired.status).toBe(409);
		expect(expired.body.message).toMatch(/expired/);
		expect((await call(sb, 'GET', url, { token, query: { [param]: 'no-such-scroll' } })).status).toBe(409);
	});
});

describe('organization events', () => {
	const ctx = useSandbox();
	const events = (query: CallOptions['query'] = {}) =>
		call(ctx.sb, 'GET', `/v1/organizations/${ctx.sb.organizationId}/events`, { token: ctx.token, query });

	it('scrolls with enableScroll/scrollId: scrollId on every page, an empty page past the end', async () => {
		const ids: string[] = [];
		const counts: number[] = [];
		let scrollId: string | undefined;
		for (let page = 0; page < 10; page++) {
			const res = await events(scrollId ? { scrollId } : { enableScroll: true, size: 120 });
			expect(res.status).toBe(200);
			expect(res.body.status).toBe('ok');
			expect(res.body.count).toBe(res.body.events.length);
			expect(typeof res.body.scrollId).toBe('string');
			scrollId = res.body.scrollId;
			counts.push(res.body.count);
			ids.push(...res.body.events.map((e: Json) => e.event.id));
			if (res.body.count === 0) break;
		}
		expect(counts).toEqual([120, 120, 120, 120, 20, 0]);
		expect(new Set(ids).size).toBe(500);
		expect(ids.every((id) => /[lg]$/.test(id))).toBe(true);
	});

	it('returns the live-data shape; geo events have no organizationId', async () => {
		const res = await events({ size: 500 });
		const list: Json[] = res.body.events;
		expect(res.body.scrollId).toBeUndefined();
		expect(new Set(list.map((e) => e.event.type)).size).toBe(13);
		for (const e of list) {
			expect(e.when.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
			expect(e.when).toEqual({
				createdAt: expect.any(String),
				createdAtLocal: expect.any(String),
				timezone: expect.any(String),
			});
			const geo = e.event.type.startsWith('geo_');
			expect(e.event.id.endsWith(geo ? 'g' : 'l')).toBe(true);
			expect('organizationId' in e).toBe(!geo);
			if (geo) expect(e.where.geofenceJSON.coordinates).toHaveLength(2);
			if (e.event.type === 'visit')
				expect(e.event.visit).toMatchObject({ duration: expect.any(Number), startAt: expect.any(String) });
		}
	});

	it('sorts by business time by default and by UTC time on request, ties by id', async () => {
		const business = (await events({ size: 500 })).body.events as Json[];
		expect(isNonDecreasing(business.map((e) => e.when.createdAtLocal))).toBe(true);
		const utc = (await events({ size: 500, sortBy: 'utcTime' })).body.events as Json[];
		expect(isNonDecreasing(utc.map((e) => e.when.createdAt))).toBe(true);
		expect(utc.map((e) => e.event.id)).not.toEqual(business.map((e) => e.event.id)); // zones differ
		const reversed = (await events({ size: 500, sortBy: 'utcTime', sortReverse: true })).body.events as Json[];
		expect(reversed[0].event.id).toBe(utc[utc.length - 1].event.id);
	});

	it('filters by kinds and by a date window', async () => {
		const kinds = await events({ events: 'signup,visit', size: 500 });
		const expected = ctx.sb.data.events.filter((e) => e.event.type === 'signup' || e.event.type === 'visit');
		expect(kinds.body.count).toBe(expected.length);
		const times = sortedCopy(ctx.sb.data.events.map((e) => e.when.createdAt));
		const [from, to] = [times[100], times[199]];
		const window = await events({ dateStart: from, dateEnd: to, size: 500 });
		expect(window.body.count).toBe(100);
	});

	it('refuses bad parameters with 409 naming them', async () => {
		const cases: Array<[CallOptions['query'], RegExp]> = [
			[{ events: 'signup,geo_visit' }, /events/],
			[{ events: 'arriving' }, /events/],
			[{ dateStart: 'last week' }, /dateStart/],
			[{ dateStart: '2024-05-02T00:00:00Z', dateEnd: '2024-05-01T00:00:00Z' }, /dateStart/],
			[{ sortBy: 'createdAt' }, /sortBy/],
			[{ size: 10001 }, /size/],
			[{ sortReverse: 'maybe' }, /sortReverse/],
		];
		for (const [query, message] of cases) {
			const res = await events(query);
			expect(res.status).toBe(409);
			expect(res.body.message).toMatch(message);
		}
	});

	it('refuses a size change during a scroll', async () => {
		const first = await events({ enableScroll: true, size: 50 });
		const changed = await events({ scrollId: first.body.scrollId, size: 60 });
		expect(changed.status).toBe(409);
		expect(changed.body.message).toMatch(/size/);
	});

	it('lists the events of one contact, first size only, 404 for an unknown contact', async () => {
		const { sb, token } = ctx;
		const cid = sb.data.contacts[0]!.cid;
		const own = sb.data.events.filter((e) => e.customerId === cid);
		expect(own.length).toBeGreaterThan(2);
		const path = `/v1/organizations/${sb.organizationId}/customers/${cid}/events`;
		const all = await call(sb, 'GET', path, { token });
		expect(all.body.count).toBe(own.length);
		expect(all.body.events.every((e: Json) => e.customerId === cid)).toBe(true);
		expect((await call(sb, 'GET', path, { token, query: { size: 2 } })).body.count).toBe(2);
		expect(
			(
				await call(sb, 'GET', `/v1/organizations/${sb.organizationId}/customers/deadbeefdeadbeefdeadbeef/events`, {
					token,
				})
			).status,
		).toBe(404);
	});
});

describe('injected events and late visibility', () => {
	const start = Date.UTC(2025, 5, 1, 12, 0, 0);
	const ctx = useSandbox({ now: start });

	it('shows an injected event only once the clock passes createdAt + visibleAfterMs', async () => {
		const { sb, token } = ctx;
		const contact = sb.data.contacts[5]!;
		const [injected] = sb.injectEvents([
			{ type: 'signup', customerId: contact.cid, visibleAfterMs: 30_000, signup: { source: 'kiosk' } },
		]);
		expect(injected.event.id).toMatch(/l$/);
		expect(injected.event.signup).toEqual({ source: 'kiosk' });
		const query = { events: 'signup', dateStart: new Date(sb.clock.now() - 1000).toISOString() };
		const path = `/v1/organizations/${sb.organizationId}/events`;
		expect((await call(sb, 'GET', path, { token, query })).body.count).toBe(0);
		sb.clock.advance(30_000);
		const later = await call(sb, 'GET', path, { token, query });
		expect(later.body.events.map((e: Json) => e.event.id)).toEqual([injected.event.id]);
		expect(later.body.events[0]).toEqual(injected);
	});

	it('injects through the admin door, and a backdated event appears in its place', async () => {
		const { sb, token } = ctx;
		const createdAt = new Date(sb.clock.now() - 3_600_000).toISOString();
		const res = await call(sb, 'POST', '/__admin/events', {
			body: [{ type: 'geo_visit', createdAt, visibleAfterMs: 5000 }, { type: 'login' }],
		});
		expect(res.status).toBe(200);
		expect(res.body.count).toBe(2);
		const [geo] = res.body.events;
		expect(geo.event.id).toMatch(/g$/);
		expect(geo).not.toHaveProperty('organizationId');
		expect(geo.when.createdAt).toBe(createdAt);
		const path = `/v1/organizations/${sb.organizationId}/events`;
		const query = { dateStart: createdAt, dateEnd: createdAt, sortBy: 'utcTime' };
		expect((await call(sb, 'GET', path, { token, query })).body.events.map((e: Json) => e.event.id)).toEqual([
			geo.event.id,
		]);
		expect((await call(sb, 'POST', '/__admin/events', { body: [{ type: 'teleport' }] })).status).toBe(400);
	});

	it('reports state, moves the clock and expires tokens through the admin door, unlogged', async () => {
		const { sb } = ctx;
		sb.clearRequests();
		const state = await call(sb, 'GET', '/__admin/state');
		expect(state.body).toMatchObject({
			organizationId: sb.organizationId,
			logins: sb.logins,
			counts: { contacts: 300, segments: 6 },
		});
		expect(state.body.counts.events).toBe(sb.data.events.length);
		const before = sb.clock.now();
		const moved = await call(sb, 'POST', '/__admin/clock', { body: { advance: 60_000 } });
		expect(moved.body.now).toBeGreaterThanOrEqual(before + 60_000);
		const set = await call(sb, 'POST', '/__admin/clock', { body: { set: start + 86_400_000 } });
		expect(Math.abs(set.body.now - (start + 86_400_000))).toBeLessThan(1000);
		const token = await login(sb);
		expect((await call(sb, 'POST', '/__admin/tokens/expire')).body.expired).toBeGreaterThan(0);
		expect((await call(sb, 'GET', `/v2/segments/organizations/${sb.organizationId}`, { token })).status).toBe(403);
		expect(sb.requests.map((r) => r.path)).toEqual([
			'/v1/sts/login/services',
			`/v2/segments/organizations/${sb.organizationId}`,
		]);
		const logged = await call(sb, 'GET', '/__admin/requests');
		expect(logged.body.count).toBe(2);
		expect((await call(sb, 'DELETE', '/__admin/requests')).status).toBe(200);
		expect(sb.requests).toHaveLength(0);
		ctx.token = await login(sb);
	});
});

describe('faults', () => {
	const ctx = useSandbox();
	const segmentsPath = () => `/v2/segments/organizations/${ctx.sb.organizationId}`;

	afterEach(() => ctx.sb.clearFaults());

	it('answers 429 with Retry-After the given number of times, then normally', async () => {
		const { sb, token } = ctx;
		sb.addFault({ path: '/segments/', status: 429, retryAfter: 3, times: 2 });
		const first = await call(sb, 'GET', segmentsPath(), { token });
		expect(first.status).toBe(429);
		expect(first.headers['retry-after']).toBe('3');
		expect(first.body.message).toMatch(/too many requests/i);
		expect((await call(sb, 'GET', segmentsPath(), { token })).status).toBe(429);
		expect((await call(sb, 'GET', segmentsPath(), { token })).status).toBe(200);
	});

	it('matches method and path, and applies before authentication', async () => {
		const { sb } = ctx;
		sb.addFault({ method: 'post', path: '^/v1/sts/login', status: 503, body: { message: 'maintenance' } });
		expect((await call(sb, 'GET', segmentsPath())).status).toBe(403); // not matched: no token
		const res = await call(sb, 'POST', '/v1/sts/login/services', { body: {} });
		expect(res).toMatchObject({ status: 503, body: { message: 'maintenance' } });
		expect(sb.requests[sb.requests.length - 1]).toMatchObject({
			method: 'POST',
			path: '/v1/sts/login/services',
			status: 503,
		});
	});

	it('delays and then serves normally', async () => {
		const { sb, token } = ctx;
		sb.addFault({ delayMs: 300 });
		const t0 = Date.now();
		const res = await call(sb, 'GET', segmentsPath(), { token });
		expect(res.status).toBe(200);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
	});

	it('skips the first matching requests when asked, and can expire every token instead of answering', async () => {
		const { sb } = ctx;
		const token = await login(sb);
		sb.addFault({ path: 'segments', skip: 1, expireTokens: true });
		expect((await call(sb, 'GET', segmentsPath(), { token })).status).toBe(200); // skipped
		expect((await call(sb, 'GET', segmentsPath(), { token })).status).toBe(403); // tokens expired, then served
		ctx.token = await login(sb);
		sb.addFault({ path: 'segments', status: 503, skip: 2, times: 1 });
		const statuses = [];
		for (let i = 0; i < 4; i++) statuses.push((await call(sb, 'GET', segmentsPath(), { token: ctx.token })).status);
		expect(statuses).toEqual([200, 200, 503, 200]);
	});

	it('repeats the last answer to the same path without moving the scroll, as a service ignoring the scroll id', async () => {
		const { sb, token } = ctx;
		const contactsPath = `/v2/customers/organizations/${sb.organizationId}`;
		sb.addFault({ method: 'GET', path: '/customers/organizations/', repeat: true, skip: 1, times: 2 });
		const first = await call(sb, 'GET', contactsPath, { token, query: { size: 100 } });
		const pages = [first];
		for (let i = 0; i < 3; i++) {
			pages.push(await call(sb, 'GET', contactsPath, { token, query: { sid: first.body.sId, size: 100 } }));
		}
		expect(pages.map((p) => p.status)).toEqual([200, 200, 200, 200]);
		expect(pages[1].body).toEqual(first.body);
		expect(pages[2].body).toEqual(first.body);
		// Used up: served again, and the scroll goes on from where the first page left it.
		expect(pages[3].body.sId).toBe(first.body.sId);
		expect(pages[3].body.customers[0].cid).toBe(sb.data.contacts[100]!.cid);
	});

	it('drops the connection', async () => {
		const { sb, token } = ctx;
		sb.addFault({ path: 'segments', destroy: true });
		await expect(call(sb, 'GET', segmentsPath(), { token })).rejects.toThrow();
		expect((await call(sb, 'GET', segmentsPath(), { token })).status).toBe(200);
	});

	it('expireTokensAfter: the request is answered with its token, and every token expires after it', async () => {
		const { sb, token } = ctx;
		sb.addFault({ method: 'GET', path: '^/v2/segments/', expireTokensAfter: true });
		expect((await call(sb, 'GET', segmentsPath(), { token })).status).toBe(200);
		expect((await call(sb, 'GET', segmentsPath(), { token })).status).toBe(403);
		ctx.token = await login(sb); // the tests after this one need a live token
	});

	it('is configurable through the admin door', async () => {
		const { sb, token } = ctx;
		expect((await call(sb, 'POST', '/__admin/faults', { body: { status: 500 } })).status).toBe(200);
		expect((await call(sb, 'GET', segmentsPath(), { token })).status).toBe(500);
		await call(sb, 'POST', '/__admin/faults', { body: { status: 502, times: 5 } });
		await call(sb, 'DELETE', '/__admin/faults');
		expect((await call(sb, 'GET', segmentsPath(), { token })).status).toBe(200);
		expect((await call(sb, 'POST', '/__admin/faults', { body: { path: '(', status: 500 } })).status).toBe(400);
	});
});

describe('load: latency and a limit on requests in flight', () => {
	const ctx = useSandbox({ latencyMs: 30, maxInFlight: 4, retryAfterS: 2 });
	const segmentsPath = () => `/v2/segments/organizations/${ctx.sb.organizationId}`;

	it('delays every answer, and above the limit answers 429 at once with Retry-After, doing no work', async () => {
		const { sb, token } = ctx;
		sb.clearRequests();
		const cid = sb.data.contacts[0]!.cid;
		const path = `/v1/customers/${cid}/policies`;
		const before = sb.data.contacts.get(cid)!.policies.find((p) => p.name === 'privacy')?.accepted;
		const t0 = Date.now();
		const replies = await Promise.all(
			Array.from({ length: 6 }, () =>
				call(sb, 'PUT', path, { token, body: { policies: [{ policyKey: 'privacy', accepted: !before }] } }),
			),
		);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
		const statuses = replies.map((r) => r.status).sort();
		expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
		const refused = replies.find((r) => r.status === 429)!;
		expect(refused.headers['retry-after']).toBe('2');
		expect(refused.body).toEqual({ message: 'Too many requests: rate limit exceeded' });
		expect(sb.rateLimited).toBe(2);
		expect(sb.maxSeenInFlight).toBeGreaterThanOrEqual(5); // a refusal may end before the last one arrives
		expect(sb.requests.filter((r) => r.status === 429)).toHaveLength(2);
	});

	it('with refusalLatencyMs, a 429 leaves that late, and a refused request holds no place meanwhile', async () => {
		const { sb, token } = ctx;
		sb.setLoad({ refusalLatencyMs: 300 });
		try {
			const t0 = Date.now();
			const timed = () =>
				call(sb, 'GET', segmentsPath(), { token }).then((reply) => ({ status: reply.status, ms: Date.now() - t0 }));
			const calls = Array.from({ length: 6 }, timed);
			// Once the four served have answered (after 30 ms; a fixed wait failed on a busy CI), four more are sent while
			// the two refusals are still held back: all four are served.
			let answered = 0;
			await new Promise<void>((resolve) => calls.forEach((c) => void c.then(() => ++answered === 4 && resolve())));
			const second = await Promise.all(Array.from({ length: 4 }, timed));
			const refused = (await Promise.all(calls)).filter((r) => r.status === 429);
			expect(refused).toHaveLength(2);
			for (const r of refused) expect(r.ms).toBeGreaterThanOrEqual(295);
			expect(second.map((r) => r.status)).toEqual([200, 200, 200, 200]);
			// Served while both refusals were still on their way out.
			expect(Math.max(...second.map((r) => r.ms))).toBeLessThan(Math.min(...refused.map((r) => r.ms)));
		} finally {
			sb.setLoad({ refusalLatencyMs: 0 });
		}
	});

	it('with slowRefusals, a 429 takes as long as an answer and the refused request holds a place meanwhile', async () => {
		const { sb, token } = ctx;
		// Answers and refusals take 300 ms, so the six are still in flight when the two newcomers come (a busy host).
		sb.setLoad({ slowRefusals: true, latencyMs: 300 });
		try {
			const t0 = Date.now();
			const timed = () =>
				call(sb, 'GET', segmentsPath(), { token }).then((reply) => ({ status: reply.status, ms: Date.now() - t0 }));
			sb.clearRequests();
			const first = Promise.all(Array.from({ length: 6 }, timed));
			// Once the six arrived, four are served and two refusals held. With room for six, newcomers are still refused.
			while (sb.requests.length < 6) await new Promise((resolve) => setTimeout(resolve, 5));
			sb.setLoad({ maxInFlight: 6 });
			const second = await Promise.all(Array.from({ length: 2 }, timed));
			const refused = (await first).filter((r) => r.status === 429);
			expect(refused).toHaveLength(2);
			for (const r of refused) expect(r.ms).toBeGreaterThanOrEqual(295);
			expect(second.map((r) => r.status)).toEqual([429, 429]);
		} finally {
			sb.setLoad({ slowRefusals: false, latencyMs: 30, maxInFlight: 4 });
		}
	});

	it('with cutAnswersPercent, that share of the requests is served, then cut before the answer', async () => {
		const { sb, token } = ctx;
		sb.setLoad({ maxInFlight: 0, latencyMs: 0, cutAnswersPercent: 50 });
		sb.clearRequests();
		try {
			const cid = sb.data.contacts[1]!.cid;
			const body = { policies: [{ policyKey: 'privacy', accepted: true }] };
			const replies = await Promise.all(
				Array.from({ length: 40 }, () =>
					call(sb, 'PUT', `/v1/customers/${cid}/policies`, { token, body }).then(
						(r) => r.status,
						() => 'cut',
					),
				),
			);
			const cut = replies.filter((r) => r === 'cut').length;
			expect(cut).toBeGreaterThan(5);
			expect(cut).toBeLessThan(35);
			// Every request was served: the cut ones too (their work is done), with status 200 in the log.
			expect(sb.requests.filter((r) => r.cut)).toHaveLength(cut);
			expect(sb.requests.every((r) => r.status === 200)).toBe(true);
		} finally {
			sb.setLoad({ maxInFlight: 4, latencyMs: 30, cutAnswersPercent: 0 });
		}
	});

	it('changes at run time through setLoad and the admin door', async () => {
		const { sb, token } = ctx;
		expect(sb.setLoad({ maxInFlight: 0, latencyMs: 0 })).toEqual({
			latencyMs: 0,
			latencyJitterMs: 0,
			maxInFlight: 0,
			maxPerSecond: 0,
			windowS: 1,
			retryAfterS: 2,
			refusalLatencyMs: 0,
			slowRefusals: false,
			cutAnswersPercent: 0,
		});
		const replies = await Promise.all(Array.from({ length: 8 }, () => call(sb, 'GET', segmentsPath(), { token })));
		expect(replies.every((r) => r.status === 200)).toBe(true);
		const set = await call(sb, 'POST', '/__admin/load', { body: { maxInFlight: 1 } });
		expect(set.body).toEqual({
			latencyMs: 0,
			latencyJitterMs: 0,
			maxInFlight: 1,
			maxPerSecond: 0,
			windowS: 1,
			retryAfterS: 2,
			refusalLatencyMs: 0,
			slowRefusals: false,
			cutAnswersPercent: 0,
		});
		expect(() => sb.setLoad({ maxInFlight: -1 })).toThrow('maxInFlight must be an integer >= 0');
		expect(() => sb.setLoad({ latencyJitterMs: -5 })).toThrow('latencyJitterMs must be an integer >= 0');
		expect(() => sb.setLoad({ maxPerSecond: 1.5 })).toThrow('maxPerSecond must be an integer >= 0');
		expect(() => sb.setLoad({ windowS: 0 })).toThrow('windowS must be an integer >= 1');
		expect(() => sb.setLoad({ slowRefusals: 'yes' as never })).toThrow('slowRefusals must be true or false');
		expect(() => sb.setLoad({ cutAnswersPercent: 101 })).toThrow('cutAnswersPercent must be an integer from 0 to 100');
		sb.setLoad({ maxInFlight: 4 });
	});

	it('with maxPerSecond, refuses what comes above that many accepted in the last second, however few are in flight', async () => {
		const { sb, token } = ctx;
		sb.setLoad({ maxInFlight: 0, latencyMs: 0, maxPerSecond: 5 });
		sb.clearRequests();
		const statuses: number[] = [];
		for (let i = 0; i < 7; i++) statuses.push((await call(sb, 'GET', segmentsPath(), { token })).status);
		expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]); // one at a time, yet refused
		expect(sb.rateLimited).toBe(2);
		await new Promise((resolve) => setTimeout(resolve, 1050));
		expect((await call(sb, 'GET', segmentsPath(), { token })).status).toBe(200); // the window moved on
		sb.setLoad({ maxInFlight: 4, latencyMs: 30, maxPerSecond: 0 });
	});

	it('with windowS, maxPerSecond counts over that many seconds (a per-minute limit, scaled down)', async () => {
		const { sb, token } = ctx;
		sb.setLoad({ maxInFlight: 0, latencyMs: 0, maxPerSecond: 2, windowS: 2 });
		await new Promise((resolve) => setTimeout(resolve, 2000)); // the last test's requests leave the window
		const get = async () => (await call(sb, 'GET', segmentsPath(), { token })).status;
		expect([await get(), await get(), await get()]).toEqual([200, 200, 429]);
		await new Promise((resolve) => setTimeout(resolve, 1050));
		expect(await get()).toBe(429); // a second later, the window still holds both
		await new Promise((resolve) => setTimeout(resolve, 1000));
		expect(await get()).toBe(200);
		sb.setLoad({ maxInFlight: 4, latencyMs: 30, maxPerSecond: 0, windowS: 1 });
	});

	it('with latencyJitterMs, answers take latencyMs plus a random share of it, so they come back out of order', async () => {
		const { sb, token } = ctx;
		sb.setLoad({ maxInFlight: 0, latencyMs: 20, latencyJitterMs: 200 });
		const took: number[] = [];
		const order: number[] = [];
		await Promise.all(
			Array.from({ length: 20 }, async (_, i) => {
				const t0 = performance.now();
				expect((await call(sb, 'GET', segmentsPath(), { token })).status).toBe(200);
				took.push(performance.now() - t0);
				order.push(i);
			}),
		);
		expect(Math.min(...took)).toBeGreaterThanOrEqual(19);
		expect(Math.max(...took) - Math.min(...took)).toBeGreaterThan(100); // spread over the jitter, not all at 20 ms
		expect(order).not.toEqual([...order].sort((a, b) => a - b));
		sb.setLoad({ maxInFlight: 4, latencyMs: 30, latencyJitterMs: 0 });
	});
});

describe('odd answers', () => {
	const ctx = useSandbox();
	const segmentsPath = () => `/v2/segments/organizations/${ctx.sb.organizationId}`;
	const raw = async (path: string, token: string) => {
		const res = await request(new URL(path, ctx.sb.url), { headers: { authorization: `Bearer ${token}` } });
		return { status: res.statusCode, type: res.headers['content-type'], text: await res.body.text() };
	};

	it("sends a raw body as-is, such as a proxy's HTML 502 page", async () => {
		ctx.sb.addFault({ path: 'segments', status: 502, rawBody: '<html><body>Bad Gateway</body></html>' });
		expect(await raw(segmentsPath(), ctx.token)).toEqual({
			status: 502,
			type: 'text/html',
			text: '<html><body>Bad Gateway</body></html>',
		});
	});

	it('cuts an answer short: the client sees the connection end before the announced length', async () => {
		ctx.sb.addFault({ path: 'segments', truncate: true });
		await expect(raw(segmentsPath(), ctx.token)).rejects.toThrow();
		ctx.sb.addFault({ path: 'segments', rawBody: '{"segments": [', contentType: 'application/json', truncate: true });
		await expect(raw(segmentsPath(), ctx.token)).rejects.toThrow();
	});
});

describe('request log', () => {
	const ctx = useSandbox();

	it('records method, path, query, body, authorization, status and the times of arrival and answer', async () => {
		const { sb, token } = ctx;
		sb.clearRequests();
		await call(sb, 'GET', `/v3/hotspots/organizations/${sb.organizationId}`, {
			token,
			query: { limit: 5, name: 'AP' },
		});
		await call(sb, 'PUT', `/v1/customers/${sb.data.contacts[0]!.cid}/policies`, { token, body: { policies: [] } });
		expect(sb.requests).toEqual([
			{
				method: 'GET',
				path: `/v3/hotspots/organizations/${sb.organizationId}`,
				query: { limit: '5', name: 'AP' },
				body: undefined,
				authorization: `Bearer ${token}`,
				status: 200,
				at: expect.any(Number),
				doneAt: expect.any(Number),
			},
			expect.objectContaining({ method: 'PUT', body: { policies: [] }, status: 409 }),
		]);
		expect(sb.requests[0].doneAt).toBeGreaterThanOrEqual(sb.requests[0].at);
	});
});

describe('segments and organization WiFi connections', () => {
	const ctx = useSandbox();
	const accountings = (query: CallOptions['query'] = {}) =>
		call(ctx.sb, 'GET', `/v2/organizations/${ctx.sb.organizationId}/accountings`, { token: ctx.token, query });

	it('lists segments', async () => {
		const res = await call(ctx.sb, 'GET', `/v2/segments/organizations/${ctx.sb.organizationId}`, { token: ctx.token });
		expect(res.body.size).toBe(6);
		expect(res.body.segments[0]).toEqual(
			expect.objectContaining({ id: expect.any(String), name: expect.any(String), audience: expect.any(Number) }),
		);
	});

	it('scrolls the organization connections by sid', async () => {
		let sid: string | undefined;
		let total = 0;
		for (;;) {
			const res = await accountings(sid ? { sid } : { size: 150 });
			sid = res.body.sId;
			total += res.body.count;
			if (!res.body.count) break;
			expect(res.body.connections[0]).toHaveProperty('hotspotIdentifier');
		}
		expect(total).toBe(400);
	});

	it('filters by location and date; a date-time needs a time zone', async () => {
		const { connections, locations } = ctx.sb.data;
		const locationId = locations[0].id;
		const byLocation = await accountings({ locationId, size: 1000 });
		expect(byLocation.body.count).toBe(connections.filter((c) => c.locationId === locationId).length);
		const starts = sortedCopy(connections.map((c) => c.start));
		const window = await accountings({ dateStart: starts[10], dateEnd: starts[19], size: 1000 });
		expect(window.body.count).toBe(10);
		expect((await accountings({ dateStart: '2025-01-01' })).status).toBe(200);
		const zoneless = await accountings({ dateStart: '2025-01-01T10:00:00' });
		expect(zoneless.status).toBe(409);
		expect(zoneless.body.message).toMatch(/dateStart/);
		expect((await accountings({ timeZone: 'Mars/Olympus' })).status).toBe(409);
	});
});

describe('hotspots', () => {
	const ctx = useSandbox();
	const org = () => ctx.sb.organizationId;
	const newHotspot = () => ({
		organizationId: org(),
		venueId: ctx.sb.data.locations[0].id,
		name: 'Lobby AP',
		routerType: 'meraki',
		macAddress: '00:11:22:aa:bb:cc',
		latitude: 45.46,
		longitude: 9.19,
		country: 'IT',
		address: 'Via Dante 1',
		city: 'Milano',
		state: 'MI',
		zip: '20121',
	});

	it('lists with limit/offset and reports the total count', async () => {
		const { sb, token } = ctx;
		const first = await call(sb, 'GET', `/v3/hotspots/organizations/${org()}`, { token });
		expect(first.body).toMatchObject({ status: 'ok', count: 25 });
		expect(first.body.hotspots).toHaveLength(20);
		const rest = await call(sb, 'GET', `/v3/hotspots/organizations/${org()}`, {
			token,
			query: { limit: 20, offset: 20 },
		});
		expect(rest.body.hotspots).toHaveLength(5);
		expect(Object.keys(first.body.hotspots[0]).sort()).toEqual(
			[
				'id',
				'name',
				'description',
				'firmware',
				'vendor',
				'hotspotIdentifier',
				'date',
				'macAddress',
				'venueId',
				'country',
				'city',
				'address',
				'latitude',
				'longitude',
				'deleted',
			].sort(),
		);
		const byVenue = await call(sb, 'GET', `/v3/hotspots/organizations/${org()}`, {
			token,
			query: { venueId: sb.data.locations[0].id },
		});
		expect(byVenue.body.count).toBe(sb.data.hotspots.filter((h) => h.venueId === sb.data.locations[0].id).length);
		const bad: Array<CallOptions['query']> = [
			{ limit: 0 },
			{ limit: 1001 },
			{ creationDateStart: '01/02/2024' },
			{ deleted: 'no' },
		];
		for (const query of bad) {
			expect((await call(sb, 'GET', `/v3/hotspots/organizations/${org()}`, { token, query })).status).toBe(409);
		}
	});

	it('creates, reads, updates and soft-deletes a hotspot', async () => {
		const { sb, token } = ctx;
		const created = await call(sb, 'POST', '/v3/hotspots', { token, body: newHotspot() });
		expect(created.status).toBe(200);
		expect(created.body).toMatchObject({
			status: 'ok',
			locationId: sb.data.locations[0].id,
			hotspotId: expect.any(String),
		});
		const { hotspotId } = created.body;

		const got = await call(sb, 'GET', `/v3/hotspots/${hotspotId}`, { token });
		expect(got.body.hotspot).toMatchObject({ name: 'Lobby AP', macAddress: '00:11:22:AA:BB:CC', deleted: false });
		const byIdentifier = await call(
			sb,
			'GET',
			`/v3/hotspots/identifier/${encodeURIComponent(got.body.hotspot.hotspotIdentifier)}`,
			{ token },
		);
		expect(byIdentifier.body.hotspot.id).toBe(hotspotId);

		const updated = await call(sb, 'PUT', `/v3/hotspots/${hotspotId}`, {
			token,
			body: {
				organziationId: org(),
				locationId: sb.data.locations[1].id,
				name: 'Lobby AP (moved)',
				addressAsLocation: true,
			},
		});
		expect(updated.status).toBe(200);
		expect(updated.body.locationId).toBe(sb.data.locations[1].id);
		expect((await call(sb, 'GET', `/v3/hotspots/${hotspotId}`, { token })).body.hotspot).toMatchObject({
			name: 'Lobby AP (moved)',
			venueId: sb.data.locations[1].id,
			city: sb.data.locations[1].address.city,
		});

		expect((await call(sb, 'DELETE', `/v3/hotspots/${hotspotId}`, { token })).body.status).toBe('ok');
		expect((await call(sb, 'GET', `/v3/hotspots/${hotspotId}`, { token })).body.hotspot.deleted).toBe(true);
		const deleted = await call(sb, 'GET', `/v3/hotspots/organizations/${org()}`, { token, query: { deleted: true } });
		expect(deleted.body.hotspots.map((h: Json) => h.id)).toEqual([hotspotId]);
		expect((await call(sb, 'DELETE', `/v3/hotspots/${hotspotId}`, { token })).status).toBe(404);
	});

	it('validates the create body', async () => {
		const { sb, token } = ctx;
		const without = (field: string) =>
			Object.fromEntries(Object.entries(newHotspot()).filter(([key]) => key !== field));
		const cases: Array<[object, number, RegExp]> = [
			[without('name'), 409, /name/],
			[without('routerType'), 409, /routerType/],
			[without('latitude'), 409, /latitude/],
			[{ ...newHotspot(), longitude: 200 }, 409, /longitude/],
			[without('organizationId'), 409, /organizationId/],
			[without('venueId'), 409, /venueId/],
			[without('zip'), 409, /zip/],
			[{ ...newHotspot(), country: 'Italy' }, 409, /country/],
			[{ ...newHotspot(), macAddress: 'not-a-mac' }, 409, /macAddress/],
			[{ ...newHotspot(), venueId: 'nowhere' }, 404, /nowhere/],
			[{ ...newHotspot(), organizationId: 'other-org' }, 404, /other-org/],
		];
		for (const [body, status, message] of cases) {
			const res = await call(sb, 'POST', '/v3/hotspots', { token, body });
			expect({ status: res.status, message: res.body.message }).toEqual({
				status,
				message: expect.stringMatching(message),
			});
		}
		const { country, address, city, state, zip, organizationId, ...rest } = newHotspot();
		const asLocation = await call(sb, 'POST', '/v3/hotspots', {
			token,
			body: { ...rest, organziationId: organizationId, addressAsLocation: true },
		});
		expect(asLocation.status).toBe(200);
		expect([country, address, city, state, zip]).toHaveLength(5);
	});

	it('refuses to update fixed fields, and requires organization and location', async () => {
		const { sb, token } = ctx;
		const hotspot = sb.data.hotspots[0];
		const base = { organizationId: org(), locationId: hotspot.venueId };
		for (const field of ['venueId', 'routerType', 'macAddress', 'hotspotIdentifier', 'ssid']) {
			const res = await call(sb, 'PUT', `/v3/hotspots/${hotspot.id}`, { token, body: { ...base, [field]: 'x' } });
			expect(res.status).toBe(409);
			expect(res.body.message).toContain(field);
		}
		expect(
			(await call(sb, 'PUT', `/v3/hotspots/${hotspot.id}`, { token, body: { organizationId: org() } })).body.message,
		).toMatch(/locationId/);
		expect(
			(await call(sb, 'PUT', `/v3/hotspots/${hotspot.id}`, { token, body: { locationId: hotspot.venueId } })).status,
		).toBe(409);
		expect((await call(sb, 'PUT', '/v3/hotspots/nope', { token, body: base })).status).toBe(404);
		expect((await call(sb, 'GET', '/v3/hotspots/identifier/nope', { token })).status).toBe(404);
	});
});

describe('locations', () => {
	const ctx = useSandbox();
	const path = () => `/v1/organizations/${ctx.sb.organizationId}/locations`;
	const newLocation = () => ({
		name: 'Pisa Centrale',
		loginProfileId: 'lp-1',
		timezone: 'Europe/Rome',
		locationProfileId: 'lpr-1',
		welcomePortalId: 'wp-1',
		country: 'IT',
		address: 'Piazza della Stazione 1',
		city: 'Pisa',
		state: 'PI',
		zip: '56125',
		categoryName: 'coffee',
		tags: ['retail', 'station-new'],
	});

	it('lists and filters by any of the tags', async () => {
		const { sb, token } = ctx;
		const all = await call(sb, 'GET', path(), { token });
		expect(all.body.size).toBe(12);
		expect(all.body.locations[0]).toHaveProperty('organziationId', sb.organizationId);
		const tagged = await call(sb, 'GET', path(), { token, query: { tags: 'airport,mall' } });
		expect(tagged.body.size).toBe(
			sb.data.locations.filter((l) => l.tags.includes('airport') || l.tags.includes('mall')).length,
		);
	});

	it('creates (reporting new tags), reads, updates and deletes a location', async () => {
		const { sb, token } = ctx;
		const created = await call(sb, 'POST', path(), { token, body: newLocation() });
		expect(created.status).toBe(200);
		const known = new Set(sb.data.locations.slice(0, 12).flatMap((l) => l.tags));
		expect(created.body.newTags).toEqual(['retail', 'station-new'].filter((t) => !known.has(t)));
		expect(created.body.newTags).toContain('station-new');
		const { locationId } = created.body;

		const got = await call(sb, 'GET', `/v1/locations/${locationId}`, { token });
		expect(got.body).toMatchObject({
			size: 1,
			location: { id: locationId, name: 'Pisa Centrale', timezone: 'Europe/Rome', address: { city: 'Pisa' } },
		});

		const updated = await call(sb, 'PUT', `${path()}/${locationId}`, {
			token,
			body: { city: 'Lucca', tags: ['station-new', 'brand-new'] },
		});
		expect(updated.body.newTags).toEqual(['brand-new']);
		expect((await call(sb, 'GET', `/v1/locations/${locationId}`, { token })).body.location.address.city).toBe('Lucca');

		expect((await call(sb, 'DELETE', `${path()}/${locationId}`, { token })).body.status).toBe('ok');
		const gone = await call(sb, 'GET', `/v1/locations/${locationId}`, { token });
		expect(gone.status).toBe(404);
		expect(gone.body.message).toContain(locationId);
	});

	it('validates create and update bodies', async () => {
		const { sb, token } = ctx;
		const cases: Array<[object, RegExp]> = [
			[{ ...newLocation(), name: undefined }, /name/],
			[{ ...newLocation(), welcomePortalId: undefined }, /welcomePortalId/],
			[{ ...newLocation(), timezone: 'CET' }, /timezone/],
			[{ ...newLocation(), timezone: 'Europe/Atlantis' }, /timezone/],
			[{ ...newLocation(), country: 'ITA' }, /country/],
			[{ ...newLocation(), categoryName: 'spaceport' }, /categoryName/],
			[{ ...newLocation(), tags: 'retail' }, /tags/],
		];
		for (const [body, message] of cases) {
			const res = await call(sb, 'POST', path(), { token, body });
			expect(res.status).toBe(409);
			expect(res.body.message).toMatch(message);
		}
		const existing = sb.data.locations[0].id;
		expect(
			(await call(sb, 'PUT', `${path()}/${existing}`, { token, body: { categoryName: 'spaceport' } })).status,
		).toBe(409);
		expect((await call(sb, 'PUT', `${path()}/nope`, { token, body: { name: 'x' } })).status).toBe(404);
		expect((await call(sb, 'POST', '/v1/organizations/nope/locations', { token, body: newLocation() })).status).toBe(
			404,
		);
	});
});

describe('routing', () => {
	const ctx = useSandbox();

	it('answers 404 for unknown endpoints and 405 for a wrong method', async () => {
		expect((await call(ctx.sb, 'GET', '/v9/nothing', { token: ctx.token })).status).toBe(404);
		const wrong = await call(ctx.sb, 'PATCH', '/v3/hotspots', { token: ctx.token });
		expect(wrong.status).toBe(405);
		expect(wrong.headers.allow).toBe('POST');
	});

	it('answers 404 for an unknown organization on every organization-scoped list', async () => {
		for (const path of [
			'/v1/organizations/x/events',
			'/v2/organizations/x/accountings',
			'/v2/segments/organizations/x',
			'/v3/hotspots/organizations/x',
			'/v1/organizations/x/locations',
		]) {
			const res = await call(ctx.sb, 'GET', path, { token: ctx.token });
			expect(res.status).toBe(404);
			expect(res.body.message).toBe('Organization not found: x');
		}
	});
});

describe('seeding', () => {
	it('is deterministic for a seed and a start time', async () => {
		const now = Date.UTC(2025, 0, 15);
		const a = await createSandbox({ seed: 3, now });
		// The second starts on a clock that moves a millisecond per reading: the data must not depend on when setup read it.
		let ms = Date.now();
		const moving = jest.spyOn(Date, 'now').mockImplementation(() => ++ms);
		const b = await createSandbox({ seed: 3, now }).finally(() => moving.mockRestore());
		try {
			expect(a.data.contacts.toArray()).toEqual(b.data.contacts.toArray());
			expect(a.data.events).toEqual(b.data.events);
			expect(a.data.hotspots).toEqual(b.data.hotspots);
		} finally {
			await Promise.all([a.close(), b.close()]);
		}
	});

	it('starts 100000 contacts in well under 2 s and still filters them', async () => {
		const t0 = Date.now();
		const sb = await createSandbox({ contacts: 100_000 });
		try {
			expect(Date.now() - t0).toBeLessThan(2000);
			expect(sb.data.contacts.length).toBe(100_000);
			const token = await login(sb);
			const last = sb.data.contacts.at(-1)!;
			const res = await call(sb, 'GET', `/v2/customers/organizations/${sb.organizationId}`, {
				token,
				query: { username: last.username },
			});
			expect(res.body.customers.map((c: Json) => c.cid)).toEqual([last.cid]);
			expect((await call(sb, 'GET', `/v2/customers/${last.cid}`, { token })).status).toBe(200);
		} finally {
			await sb.close();
		}
	});
});
