import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Contact, LoggedRequest, WifiConnection } from '../../sandbox';
import type { ActionResult, TestContext } from '../../harness/cloud4wi';
import { actionWorkflow, apiCalls, CREDENTIAL_ID, runAction, startCloud4Wi } from '../../harness/cloud4wi';
import { atScale, buildWorkflow, runWorkflow } from '../../harness/engine';

type Call = Pick<LoggedRequest, 'method' | 'path' | 'query' | 'body'>;

/** What the sandbox received, logins left out. */
function calls(ctx: TestContext): Call[] {
	return ctx.sb.requests
		.filter((r) => !r.path.startsWith('/v1/sts/login'))
		.map(({ method, path, query, body }) => ({ method, path, query, body }));
}

/** The same endpoint asked directly with the node's stored token: the oracle for "records unchanged". */
async function direct(ctx: TestContext, path: string, query: Record<string, string> = {}): Promise<IDataObject> {
	const url = new URL(path, ctx.sb.url);
	for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
	const token = String(ctx.store.stored(CREDENTIAL_ID).sessionToken);
	const response = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
	expect(response.status).toBe(200);
	return (await response.json()) as IDataObject;
}

/** The run's error: its class name, message, hint and status as n8n keeps them. */
function failure(result: ActionResult) {
	expect(result.error).toBeDefined();
	expect(result.json).toEqual([]); // the node stopped: no item went on
	const { name, message, description, httpCode } = result.error!;
	return { name, message, description, httpCode };
}

/** Input checks fail with a NodeOperationError, the class n8n keeps with its description. */
const OPERATION_ERROR = /^NodeOperationError$/;

/** A flat contact as Simplify documents it, written out field by field. */
function simplified(c: Contact): IDataObject {
	const optIn = (name: string) => c.policies.find((p) => p.name === name)?.accepted ?? null;
	return {
		id: c.cid,
		firstName: c.firstName,
		lastName: c.lastName,
		email: c.email,
		emailVerified: c.emailVerified,
		phone: c.phone,
		phoneVerified: c.phoneVerified,
		country: c.country,
		zipCode: c.zipCode,
		gender: c.gender,
		birthDate: c.birthDate,
		signupMethod: c.signupMethod,
		locationName: c.locationName,
		created: c.created,
		modified: c.modified,
		lastLogin: c.lastLogin,
		logins: c.logins,
		privacy: optIn('privacy'),
		termsOfUse: optIn('termsOfUse'),
		marketingOptIn: optIn('mktgCommunications'),
		ageVerification: optIn('ageVerification'),
		customOptIns: Object.fromEntries(
			c.policies.filter((p) => p.name.startsWith('customs.')).map((p) => [p.name.slice('customs.'.length), p.accepted]),
		),
		segments: c.segments.map((s) => s.name),
	};
}

const getMany = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'contact',
	operation: 'getAll',
	...extra,
});
const op = (operation: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'contact',
	operation,
	...extra,
});

describe('contact Get Many: paging a 25,000-contact organization', () => {
	let ctx: TestContext;
	let listPath: string;
	beforeAll(async () => {
		ctx = await startCloud4Wi({ contacts: 25_000 });
		listPath = `/v2/customers/organizations/${ctx.sb.organizationId}`;
	});
	afterAll(async () => await ctx.sb.close());
	beforeEach(() => ctx.sb.clearRequests());

	test('Return All follows the scroll id over three pages of 10,000, and asks for no trailing empty page', async () => {
		const result = await runAction(ctx, getMany({ returnAll: true }));
		expect(result.error).toBeUndefined();
		const pages = calls(ctx);
		expect(pages.map((r) => `${r.method} ${r.path}`)).toEqual([
			`GET ${listPath}`,
			`GET ${listPath}`,
			`GET ${listPath}`,
		]);
		expect(pages[0].query).toEqual({ size: '10000' });
		const sid = pages[1].query.sid;
		expect(sid).toMatch(/^[\w-]{16,}$/);
		expect(pages[1].query).toEqual({ size: '10000', sid });
		expect(pages[2].query).toEqual({ size: '10000', sid });

		const store = ctx.sb.data.contacts;
		expect(result.json).toHaveLength(25_000);
		expect(result.json.map((c) => c.cid)).toEqual(Array.from({ length: 25_000 }, (_, i) => store.cidOf(i)));
		// Records exactly as the service sent them, on each page.
		expect(result.json[0]).toEqual(store[0]);
		expect(result.json[10_000]).toEqual(store[10_000]);
		expect(result.json[24_999]).toEqual(store[24_999]);
		expect(result.items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	test('Limit 7 asks for one page of 7 and returns those 7 contacts', async () => {
		const result = await runAction(ctx, getMany({ limit: 7 }));
		expect(result.error).toBeUndefined();
		expect(calls(ctx)).toEqual([{ method: 'GET', path: listPath, query: { size: '7' }, body: undefined }]);
		expect(result.json).toEqual(Array.from({ length: 7 }, (_, i) => ctx.sb.data.contacts[i]));
	});
});

describe('contact Get Many: a scroll id that expires between pages', () => {
	test('the 409 the service answers is a NodeApiError with its message, not retried', async () => {
		const ctx = await startCloud4Wi({ contacts: 10_001, scrollTtlMs: 10 });
		try {
			// The second page arrives 50 ms after the first: past the 10 ms the scroll id lives.
			ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/organizations/', delayMs: 50, skip: 1 });
			const result = await runAction(ctx, getMany({ returnAll: true }));
			expect(failure(result)).toEqual({
				name: 'NodeApiError',
				message: 'Invalid parameter sid: scroll id expired (scroll ids expire 0.01 s after last use)',
				description: 'Cloud4Wi refused a parameter of this request (conflict or invalid value). The message names it.',
				httpCode: '409',
			});
			const pages = ctx.sb.requests.filter((r) => r.path.startsWith('/v2/customers/organizations/'));
			expect(pages.map((r) => r.status)).toEqual([200, 409]);
			expect(pages[1].query.sid).toBeTruthy();
			expect(result.json).toEqual([]);
		} finally {
			await ctx.sb.close();
		}
	});
});

describe('contact operations', () => {
	let ctx: TestContext;
	let org: string;
	let contacts: Contact[];
	beforeAll(async () => {
		// A fixed start time: the seeded data (and so every date window below) is the same on every run.
		ctx = await startCloud4Wi({ now: Date.parse('2025-06-01T12:00:00Z') });
		org = ctx.sb.organizationId;
		contacts = ctx.sb.data.contacts.toArray();
		await runAction(ctx, { resource: 'segment', operation: 'getAll', limit: 1 }); // logs in once for the whole block
	});
	afterAll(async () => await ctx.sb.close());
	beforeEach(() => {
		ctx.sb.clearFaults();
		ctx.sb.clearRequests();
	});

	describe('Get Many filters', () => {
		test('every filter maps to its query parameter', async () => {
			const [s1, s2] = ctx.sb.data.segments;
			const [l1, l2] = ctx.sb.data.locations;
			const result = await runAction(
				ctx,
				getMany({
					limit: 25,
					filters: {
						hasEmail: true,
						emailVerified: false,
						hasPhone: true,
						phoneVerified: false,
						mktgCommunications: true,
						ageVerification: false,
						email: ' anna.rossi@example.com ',
						username: 'anna.rossi',
						extId: 'crm-1',
						extProp1: 'gold',
						extProp2: 'north',
						signupMethods: 'facebook',
						phoneNumber: '+39 (333) 123-4567',
						createdStart: '2024-01-01T00:00:00+01:00',
						createdEnd: '2024-12-31T23:59:59Z',
						modifiedStart: '2024-02-01T08:00:00.250-05:00',
						modifiedEnd: '2025-01-01T00:00:00Z',
						segmentCids: [s1.id, s2.id],
						locationCids: [l1.id, l2.id],
						customOptIns: ['Newsletter', 'Loyalty Club'],
						sortBy: 'lastName',
						sortReverse: true,
					},
				}),
			);
			expect(result.error).toBeUndefined();
			const query = {
				size: '25',
				hasEmail: 'true',
				emailVerified: 'false',
				hasPhone: 'true',
				phoneVerified: 'false',
				mktgCommunications: 'true',
				ageVerification: 'false',
				email: 'anna.rossi@example.com',
				username: 'anna.rossi',
				extId: 'crm-1',
				extProp1: 'gold',
				extProp2: 'north',
				signupMethods: 'facebook',
				phoneNumber: '+393331234567',
				createdStart: '2023-12-31T23:00:00.000Z',
				createdEnd: '2024-12-31T23:59:59.000Z',
				modifiedStart: '2024-02-01T13:00:00.250Z',
				modifiedEnd: '2025-01-01T00:00:00.000Z',
				segmentCids: `${s1.id},${s2.id}`,
				locationCids: `${l1.id},${l2.id}`,
				'customOptin.Newsletter': 'true',
				'customOptin.Loyalty Club': 'true',
				sortBy: 'lastName',
				sortReverse: 'true',
			};
			expect(calls(ctx)).toEqual([
				{ method: 'GET', path: `/v2/customers/organizations/${org}`, query, body: undefined },
			]);
			const answer = await direct(ctx, `/v2/customers/organizations/${org}`, query);
			expect(result.json).toEqual(answer.customers);
		});

		test('toggles, a custom opt-in and a reversed sort return exactly the matching contacts in order', async () => {
			const result = await runAction(
				ctx,
				getMany({
					limit: 20,
					filters: {
						hasEmail: true,
						emailVerified: true,
						customOptIns: ['Newsletter'],
						sortBy: 'lastName',
						sortReverse: true,
					},
				}),
			);
			expect(result.error).toBeUndefined();
			expect(calls(ctx)[0].query).toEqual({
				size: '20',
				hasEmail: 'true',
				emailVerified: 'true',
				'customOptin.Newsletter': 'true',
				sortBy: 'lastName',
				sortReverse: 'true',
			});
			const expected = contacts
				.filter(
					(c) => c.email && c.emailVerified && c.policies.some((p) => p.name === 'customs.Newsletter' && p.accepted),
				)
				.sort((a, b) => (a.lastName < b.lastName ? 1 : a.lastName > b.lastName ? -1 : 0))
				.slice(0, 20);
			expect(expected.length).toBeGreaterThan(3);
			expect(result.json.map((c) => c.cid)).toEqual(expected.map((c) => c.cid));
		});

		test('segments and locations are sent comma-joined and only their contacts come back', async () => {
			const segmentIds = ctx.sb.data.segments.slice(1, 3).map((s) => s.id);
			const locationIds = ctx.sb.data.locations.slice(0, 3).map((l) => l.id);
			const result = await runAction(
				ctx,
				getMany({ returnAll: true, filters: { segmentCids: segmentIds, locationCids: locationIds } }),
			);
			expect(result.error).toBeUndefined();
			expect(calls(ctx).map((r) => r.query)).toEqual([
				{ size: '10000', segmentCids: segmentIds.join(','), locationCids: locationIds.join(',') },
			]);
			const expected = contacts.filter(
				(c) =>
					c.segments.some((s) => segmentIds.includes(s.cid)) &&
					c.locationCid !== null &&
					locationIds.includes(c.locationCid),
			);
			expect(expected.length).toBeGreaterThan(0);
			expect(result.json.map((c) => c.cid)).toEqual(expected.map((c) => c.cid));
		});

		test('searching by email and by a formatted phone number finds that one contact', async () => {
			const target = contacts.find((c) => c.email && c.phone)!;
			const byEmail = await runAction(
				ctx,
				getMany({ returnAll: true, filters: { email: target.email!.toUpperCase() } }),
			);
			expect(byEmail.json).toEqual([target]);
			const spaced = `${target.phone!.slice(0, 3)} ${target.phone!.slice(3, 6)} ${target.phone!.slice(6)}`;
			const byPhone = await runAction(ctx, getMany({ returnAll: true, filters: { phoneNumber: spaced } }));
			expect(byPhone.json).toEqual([target]);
			expect(calls(ctx).map((r) => r.query)).toEqual([
				{ size: '10000', email: target.email!.toUpperCase() },
				{ size: '10000', phoneNumber: target.phone },
			]);
		});

		test('dates without an offset are read in the workflow time zone and sent as UTC instants', async () => {
			const workflow = buildWorkflow({
				...actionWorkflow(
					getMany({ returnAll: true, filters: { createdStart: '2024-03-01T09:30:00', createdEnd: '2024-07-01' } }),
				),
				settings: { timezone: 'Europe/Rome' },
			});
			const result = await runWorkflow(workflow, ctx.store);
			expect(result.error).toBeUndefined();
			expect(calls(ctx).map((r) => r.query)).toEqual([
				// 09:30 in Rome in March is 08:30 UTC; midnight of 1 July in Rome (summer time) is 22:00 UTC the day before.
				{ size: '10000', createdStart: '2024-03-01T08:30:00.000Z', createdEnd: '2024-06-30T22:00:00.000Z' },
			]);
			const from = Date.parse('2024-03-01T08:30:00.000Z');
			const to = Date.parse('2024-06-30T22:00:00.000Z');
			const expected = contacts.filter((c) => Date.parse(c.created) >= from && Date.parse(c.created) <= to);
			expect(expected.length).toBeGreaterThan(0);
			expect(expected.length).toBeLessThan(contacts.length);
			expect(result.output('Cloud4Wi').map((i) => i.json.cid)).toEqual(expected.map((c) => c.cid));
		});

		test('a date from an expression (a Luxon DateTime) is sent as its UTC instant', async () => {
			const result = await runAction(
				ctx,
				getMany({
					limit: 10,
					filters: { modifiedStart: '={{ DateTime.fromISO("2024-03-01T10:00:00", { zone: "Europe/Rome" }) }}' },
				}),
			);
			expect(result.error).toBeUndefined();
			expect(calls(ctx).map((r) => r.query)).toEqual([{ size: '10', modifiedStart: '2024-03-01T09:00:00.000Z' }]);
			const from = Date.parse('2024-03-01T09:00:00.000Z');
			const expected = contacts.filter((c) => Date.parse(c.modified) >= from);
			expect(expected.length).toBeGreaterThan(10);
			expect(expected.length).toBeLessThan(contacts.length);
			expect(result.json.map((c) => c.cid)).toEqual(expected.slice(0, 10).map((c) => c.cid));
		});

		test('Simplify returns one flat record per contact', async () => {
			const result = await runAction(ctx, getMany({ limit: 5, simplify: true }));
			expect(result.error).toBeUndefined();
			expect(calls(ctx).map((r) => r.query)).toEqual([{ size: '5' }]);
			expect(result.json).toEqual(contacts.slice(0, 5).map(simplified));
			expect(Object.keys(result.json[0]).sort()).toEqual(
				[
					'id',
					'firstName',
					'lastName',
					'email',
					'emailVerified',
					'phone',
					'phoneVerified',
					'country',
					'zipCode',
					'gender',
					'birthDate',
					'signupMethod',
					'locationName',
					'created',
					'modified',
					'lastLogin',
					'logins',
					'privacy',
					'termsOfUse',
					'marketingOptIn',
					'ageVerification',
					'customOptIns',
					'segments',
				].sort(),
			);
		});

		test('the organization typed in the node wins over the credential default; an unknown one is a 404 naming it', async () => {
			const result = await runAction(ctx, getMany({ organizationId: ' org-elsewhere ', limit: 3 }));
			expect(calls(ctx)).toEqual([
				{ method: 'GET', path: '/v2/customers/organizations/org-elsewhere', query: { size: '3' }, body: undefined },
			]);
			expect(failure(result)).toEqual({
				name: 'NodeApiError',
				message: 'Organization not found: org-elsewhere',
				description: 'Cloud4Wi has no organization "org-elsewhere". Check the ID.',
				httpCode: '404',
			});
		});
	});

	describe('one contact', () => {
		test('Get returns the profile as sent (contact ID as a plain string)', async () => {
			const target = contacts[3];
			const result = await runAction(ctx, op('get', { contactId: target.cid }));
			expect(result.error).toBeUndefined();
			expect(calls(ctx)).toEqual([{ method: 'GET', path: `/v2/customers/${target.cid}`, query: {}, body: undefined }]);
			expect(result.json).toEqual([target]);
		});

		test('Get takes the contact ID as a resource locator value too, and Simplify flattens it', async () => {
			const target = contacts.find(
				(c) => c.policies.some((p) => p.name.startsWith('customs.')) && c.segments.length > 0,
			)!;
			const result = await runAction(
				ctx,
				op('get', { contactId: { __rl: true, mode: 'id', value: target.cid }, simplify: true }),
			);
			expect(result.error).toBeUndefined();
			expect(calls(ctx)).toEqual([{ method: 'GET', path: `/v2/customers/${target.cid}`, query: {}, body: undefined }]);
			expect(result.json).toEqual([simplified(target)]);
			expect(Object.keys(result.json[0].customOptIns as IDataObject).length).toBeGreaterThan(0);
			expect(result.json[0].segments).toEqual(target.segments.map((s) => s.name));
		});

		test('Delete removes the contact and says so', async () => {
			const target = contacts[contacts.length - 1];
			const result = await runAction(ctx, op('delete', { contactId: target.cid }));
			expect(result.error).toBeUndefined();
			expect(calls(ctx)).toEqual([
				{ method: 'DELETE', path: `/v1/customers/${target.cid}`, query: {}, body: undefined },
			]);
			expect(result.json).toEqual([{ contactId: target.cid, deleted: true, status: 'deleted' }]);
			expect(ctx.sb.data.contacts.has(target.cid)).toBe(false);
		});

		test('Create Access Code posts without a body and returns the one-time code', async () => {
			const target = contacts[4];
			const result = await runAction(ctx, op('createAccessCode', { contactId: target.cid }));
			expect(result.error).toBeUndefined();
			expect(calls(ctx)).toEqual([
				{ method: 'POST', path: `/v2/customers/${target.cid}/otp`, query: {}, body: undefined },
			]);
			expect(result.json).toEqual([
				{
					contactId: target.cid,
					accessCode: expect.stringMatching(/^\d{6}$/),
					status: 'ok',
					generated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
				},
			]);
		});

		test('Update Opt-Ins sends standard and custom opt-ins as policies, and the service applies them all (200)', async () => {
			const target = contacts[5];
			const result = await runAction(
				ctx,
				op('updateOptIns', {
					contactId: target.cid,
					optIns: {
						optIn: [
							{ policy: 'mktgCommunications', accepted: true },
							{ policy: 'privacy', accepted: false },
							{ policy: 'custom', customTitle: ' Loyalty Club ', accepted: true },
						],
					},
				}),
			);
			expect(result.error).toBeUndefined();
			const policies = [
				{ policyKey: 'mktgCommunications', accepted: true },
				{ policyKey: 'privacy', accepted: false },
				{ policyKey: 'customs.Loyalty Club', accepted: true },
			];
			expect(calls(ctx)).toEqual([
				{ method: 'PUT', path: `/v1/customers/${target.cid}/policies`, query: {}, body: { policies } },
			]);
			expect(ctx.sb.requests.find((r) => r.method === 'PUT')?.status).toBe(200);
			expect(result.json).toEqual([
				{
					contactId: target.cid,
					allUpdated: true,
					notUpdated: [],
					optIns: { mktgCommunications: true, privacy: false, 'customs.Loyalty Club': true },
				},
			]);
			const stored = ctx.sb.data.contacts.get(target.cid)!.policies;
			expect(stored).toEqual(
				expect.arrayContaining([
					{ name: 'mktgCommunications', accepted: true },
					{ name: 'privacy', accepted: false },
					{ name: 'customs.Loyalty Club', accepted: true },
				]),
			);
		});

		test('Update Opt-Ins with an unknown custom opt-in (207) reports what was not updated', async () => {
			const target = contacts[6];
			const result = await runAction(
				ctx,
				op('updateOptIns', {
					contactId: target.cid,
					optIns: {
						optIn: [
							{ policy: 'termsOfUse', accepted: true },
							{ policy: 'custom', customTitle: 'Birthday Club', accepted: true },
						],
					},
				}),
			);
			expect(result.error).toBeUndefined();
			expect(calls(ctx)[0].body).toEqual({
				policies: [
					{ policyKey: 'termsOfUse', accepted: true },
					{ policyKey: 'customs.Birthday Club', accepted: true },
				],
			});
			expect(ctx.sb.requests.find((r) => r.method === 'PUT')?.status).toBe(207);
			expect(result.json).toEqual([
				{
					contactId: target.cid,
					allUpdated: false,
					notUpdated: ['customs.Birthday Club'],
					optIns: { termsOfUse: true },
				},
			]);
		});

		test('Update Opt-Ins with "Error If Some Not Updated" fails the item on a 207, naming the opt-in', async () => {
			const target = contacts[7];
			const result = await runAction(
				ctx,
				op('updateOptIns', {
					contactId: target.cid,
					optIns: {
						optIn: [
							{ policy: 'ageVerification', accepted: true },
							{ policy: 'custom', customTitle: 'Birthday Club', accepted: false },
						],
					},
					options: { failOnPartial: true },
				}),
			);
			expect(failure(result)).toEqual({
				name: 'NodeApiError',
				message: 'Cloud4Wi did not update these opt-ins: customs.Birthday Club',
				description:
					'The other opt-ins were updated. Check the custom opt-in titles, or turn off "Error If Some Not Updated".',
				httpCode: '207',
			});
			expect(apiCalls(ctx.sb)).toEqual([`PUT /v1/customers/${target.cid}/policies`]);
			expect(result.json).toEqual([]);
		});
	});

	describe('lists of one contact', () => {
		let target: Contact;
		beforeAll(() => {
			target = contacts[10];
			// Activities, visits and campaign messages for this contact, in the past so they are visible.
			const at = (daysAgo: number) => ctx.sb.clock.now() - daysAgo * 86_400_000;
			ctx.sb.injectEvents([
				{ type: 'survey', customerId: target.cid, createdAt: at(3) },
				{ type: 'send_email', customerId: target.cid, createdAt: at(2) },
				{ type: 'click_sms', customerId: target.cid, createdAt: at(1) },
				{ type: 'visit', customerId: target.cid, createdAt: at(4) },
				{ type: 'visit', customerId: target.cid, createdAt: at(5) },
			]);
		});

		test.each([
			['getActivities', 'activities', 'activities'],
			['getDevices', 'devices', 'devices'],
			['getLocationEvents', 'events', 'events'],
		])('%s: one request, one item per record, records unchanged', async (operation, suffix, key) => {
			const result = await runAction(ctx, op(operation, { contactId: target.cid, returnAll: true }));
			expect(result.error).toBeUndefined();
			expect(calls(ctx)).toEqual([
				{ method: 'GET', path: `/v2/customers/${target.cid}/${suffix}`, query: {}, body: undefined },
			]);
			const records = (await direct(ctx, `/v2/customers/${target.cid}/${suffix}`))[key] as IDataObject[];
			expect(records.length).toBeGreaterThanOrEqual(2);
			expect(result.json).toEqual(records);
			expect(result.items.map((i) => i.pairedItem)).toEqual(records.map(() => ({ item: 0 })));
		});

		test('activities: Limit keeps the first records of the one answer', async () => {
			const result = await runAction(ctx, op('getActivities', { contactId: target.cid, limit: 2 }));
			expect(calls(ctx)).toEqual([
				{ method: 'GET', path: `/v2/customers/${target.cid}/activities`, query: {}, body: undefined },
			]);
			const records = (await direct(ctx, `/v2/customers/${target.cid}/activities`)).activities as IDataObject[];
			expect(records.length).toBeGreaterThan(2);
			expect(result.json).toEqual(records.slice(0, 2));
		});

		test('WiFi connections: Return All follows the scroll id over three pages, records as sent', async () => {
			const owner = contacts[11];
			const template = ctx.sb.data.connections[0];
			const base = Date.parse('2024-01-01T00:00:00.000Z');
			const added: WifiConnection[] = Array.from({ length: 20_005 }, (_, k) => ({
				...template,
				customerId: owner.cid,
				start: new Date(base + k * 60_000).toISOString(),
				duration: k,
			}));
			const before = ctx.sb.data.connections.filter((c) => c.customerId === owner.cid);
			ctx.sb.data.connections.push(...added);
			try {
				const result = await runAction(ctx, op('getWifiConnections', { contactId: owner.cid, returnAll: true }));
				expect(result.error).toBeUndefined();
				const pages = calls(ctx);
				expect(pages.map((r) => `${r.method} ${r.path}`)).toEqual(
					Array(3).fill(`GET /v2/customers/${owner.cid}/accountings`),
				);
				const sid = pages[1].query.sid;
				expect(sid).toBeTruthy();
				expect(pages.map((r) => r.query)).toEqual([{ size: '10000' }, { size: '10000', sid }, { size: '10000', sid }]);

				// The contact-level record: no organization fields, the access point as apName/apId.
				const expected = [...before, ...added]
					.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0))
					// eslint-disable-next-line @typescript-eslint/no-unused-vars -- named only to leave them out of rest
					.map(({ customerId: _c, organizationId: _o, hotspotName, hotspotIdentifier: _i, hotspotId, ...rest }) => ({
						...rest,
						apName: hotspotName,
						apId: hotspotId,
					}));
				expect(result.json).toHaveLength(20_005 + before.length);
				expect(result.json).toEqual(expected);
			} finally {
				ctx.sb.data.connections.splice(ctx.sb.data.connections.length - added.length, added.length);
			}
		});

		test('WiFi connections: Limit asks for that many in one request', async () => {
			const owner = ctx.sb.data.connections.find((c) => ctx.sb.data.contacts.has(c.customerId))!.customerId;
			const result = await runAction(ctx, op('getWifiConnections', { contactId: owner, limit: 1 }));
			expect(result.error).toBeUndefined();
			expect(calls(ctx)).toEqual([
				{ method: 'GET', path: `/v2/customers/${owner}/accountings`, query: { size: '1' }, body: undefined },
			]);
			expect(result.json).toHaveLength(1);
			expect(result.json[0]).toMatchObject({ apId: expect.any(String), apName: expect.any(String) });
			expect(result.json[0]).not.toHaveProperty('customerId');
		});
	});

	describe('input checks: the item fails with the field named, and nothing is sent', () => {
		const contactId = (value: string) => op('get', { contactId: value });
		test.each<[string, INodeParameters, RegExp]>([
			['contact ID with "/"', contactId('abc/def'), /^Contact ID: "abc\/def" contains "\/", "\\", "\?" or "#"/],
			['contact ID with "?"', contactId('abc?x=1'), /^Contact ID: "abc\?x=1" contains/],
			['contact ID with "#"', contactId('abc#frag'), /^Contact ID: "abc#frag" contains/],
			// A literal empty required field never runs (n8n reports the node's issues); an expression can still give ''.
			['empty contact ID from an expression', contactId('={{ $json.none ?? "" }}'), /^Contact ID: is empty$/],
			['blank contact ID', op('delete', { contactId: '   ' }), /^Contact ID: is empty$/],
			[
				'contact ID with "/" on a write',
				op('createAccessCode', { contactId: '../otp' }),
				/^Contact ID: "\.\.\/otp" contains/,
			],
			['limit 0', getMany({ limit: 0 }), /^Limit: must be a whole number from 1 to 10000, got "0"$/],
			['limit 10001', getMany({ limit: 10_001 }), /^Limit: must be a whole number from 1 to 10000, got "10001"$/],
			[
				'limit 0 on a contact list',
				op('getWifiConnections', { contactId: 'abc', limit: 0 }),
				/^Limit: must be a whole number/,
			],
			[
				'malformed date',
				getMany({ filters: { createdStart: 'last tuesday' } }),
				/^Filters > Created After: "last tuesday" is not an ISO 8601 date-time$/,
			],
			[
				'impossible date',
				getMany({ filters: { modifiedEnd: '2024-02-30' } }),
				/^Filters > Modified Before: "2024-02-30" is not an ISO 8601 date-time$/,
			],
			[
				'Created After later than Created Before',
				getMany({ filters: { createdStart: '2024-06-01T00:00:00Z', createdEnd: '2024-05-01T00:00:00Z' } }),
				/^Filters > Created After: 2024-06-01T00:00:00.000Z is after Created Before 2024-05-01T00:00:00.000Z$/,
			],
			[
				'phone not E.164',
				getMany({ filters: { phoneNumber: '333 1234567' } }),
				/^Filters > Phone Number: "333 1234567" is not an E.164 phone number$/,
			],
			[
				'Reverse Order without Sort By',
				getMany({ filters: { sortReverse: true } }),
				/^Filters > Sort By \(Reverse Order needs it\): is required$/,
			],
			[
				'a segment ID with "/"',
				getMany({ filters: { segmentCids: ['ok', 'a/b'] } }),
				/^Filters > Segment: "a\/b" contains/,
			],
			[
				'no opt-ins',
				op('updateOptIns', { contactId: 'abc', optIns: {} }),
				/^Opt-Ins \(add at least one\): is required$/,
			],
			[
				'custom opt-in without a title',
				op('updateOptIns', {
					contactId: 'abc',
					optIns: { optIn: [{ policy: 'custom', customTitle: ' ', accepted: true }] },
				}),
				/^Opt-Ins > Custom Opt-In Title: is required$/,
			],
		])('%s', async (_label, parameters, message) => {
			const result = await runAction(ctx, parameters);
			const error = failure(result);
			expect(error.name).toMatch(OPERATION_ERROR);
			expect(error.message).toMatch(message);
			expect(error.httpCode).toBeUndefined();
			expect(result.error?.context?.itemIndex).toBe(0);
			expect(apiCalls(ctx.sb)).toEqual([]);
		});

		test('no organization in the node nor in the credential', async () => {
			const saved = ctx.store.stored(CREDENTIAL_ID);
			ctx.store.set(CREDENTIAL_ID, 'cloud4WiApi', { ...saved, organizationId: '' });
			try {
				const result = await runAction(ctx, getMany({ organizationId: '  ', limit: 5 }));
				const error = failure(result);
				expect(error.name).toMatch(OPERATION_ERROR);
				expect(error.message).toBe(
					'Organization ID: is empty, and the Cloud4Wi credential has no default organization',
				);
				expect(error.description).toBe(
					'Enter the organization ID here or set a default organization ID in the credential.',
				);
				expect(apiCalls(ctx.sb)).toEqual([]);
			} finally {
				ctx.store.set(CREDENTIAL_ID, 'cloud4WiApi', {
					...ctx.store.stored(CREDENTIAL_ID),
					organizationId: saved.organizationId,
				});
			}
		});
	});

	describe('service errors', () => {
		test('an unknown contact is a 404 NodeApiError with the service message and a hint naming the ID', async () => {
			const result = await runAction(ctx, op('get', { contactId: 'c-missing-42' }));
			expect(failure(result)).toEqual({
				name: 'NodeApiError',
				message: 'Contact not found: c-missing-42',
				description: 'Cloud4Wi has no contact "c-missing-42". Check the ID.',
				httpCode: '404',
			});
			expect(apiCalls(ctx.sb)).toEqual(['GET /v2/customers/c-missing-42']);
		});

		test('IDs are encoded into the path, so a space or a "+" cannot change the route', async () => {
			const result = await runAction(ctx, op('getDevices', { contactId: 'ab cd+1', returnAll: true }));
			expect(apiCalls(ctx.sb)).toEqual(['GET /v2/customers/ab%20cd%2B1/devices']);
			expect(failure(result)).toMatchObject({ message: 'Contact not found: ab cd+1', httpCode: '404' });
		});

		test('a 409 on a write is a NodeApiError with the service message, sent once', async () => {
			const target = contacts[12];
			ctx.sb.addFault({
				method: 'PUT',
				path: '/policies$',
				status: 409,
				times: 2,
				body: { message: 'Invalid parameter policies[0]: policy is locked' },
			});
			const result = await runAction(
				ctx,
				op('updateOptIns', { contactId: target.cid, optIns: { optIn: [{ policy: 'privacy', accepted: true }] } }),
			);
			expect(failure(result)).toEqual({
				name: 'NodeApiError',
				message: 'Invalid parameter policies[0]: policy is locked',
				description: 'Cloud4Wi refused a parameter of this request (conflict or invalid value). The message names it.',
				httpCode: '409',
			});
			expect(apiCalls(ctx.sb)).toEqual([`PUT /v1/customers/${target.cid}/policies`]);
		});

		test('a 429 with Retry-After 0 on a read is retried until it succeeds', async () => {
			const target = contacts[13];
			ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/', status: 429, retryAfter: 0, times: 2 });
			const result = await runAction(ctx, op('get', { contactId: target.cid }));
			expect(result.error).toBeUndefined();
			expect(result.json).toEqual([target]);
			const gets = ctx.sb.requests.filter((r) => r.path === `/v2/customers/${target.cid}`);
			expect(gets.map((r) => r.status)).toEqual([429, 429, 200]);
		});

		test('a 429 that lasts, with Retry-After 0, backs off and is given up within the 60 s of waits', async () => {
			ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/organizations/', status: 429, retryAfter: 0, times: 10 });
			// The minute of waits is 3 s (the message says so), each back-off a twentieth.
			const result = await atScale(1 / 20, () => runAction(ctx, getMany({ limit: 5 })));
			expect(failure(result)).toEqual({
				name: 'NodeApiError',
				message: 'Too many requests: rate limit exceeded',
				description:
					"Cloud4Wi kept refusing for its rate limit. A request is tried again 8 times at most, waiting as Cloud4Wi's Retry-After asks, up to 3 s while it answers no other request. Try again later, or lower Max Concurrent Requests.",
				httpCode: '429',
			});
			// Retries 0, 0.5, 1, 2, 4, 8 and 16 s after each refusal (at scale: a twentieth; asked again, "0" is not taken
			// at its word); the eighth's 32 s would pass 60 s in all.
			expect(apiCalls(ctx.sb)).toHaveLength(8);
			const times = ctx.sb.requests.filter((r) => r.path.startsWith('/v2/customers/organizations/')).map((r) => r.at);
			expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(450 / 20);
		});

		test('a 5xx on a read is retried', async () => {
			const target = contacts[14];
			ctx.sb.addFault({ method: 'GET', path: '/devices$', status: 502 });
			const result = await runAction(ctx, op('getDevices', { contactId: target.cid, returnAll: true }));
			expect(result.error).toBeUndefined();
			const gets = ctx.sb.requests.filter((r) => r.path === `/v2/customers/${target.cid}/devices`);
			expect(gets.map((r) => r.status)).toEqual([502, 200]);
			expect(result.json).toEqual((await direct(ctx, `/v2/customers/${target.cid}/devices`)).devices);
		});

		test('a 5xx on a create (access code) is not tried again: exactly one request, it may have been applied', async () => {
			const target = contacts[15];
			ctx.sb.addFault({ method: 'POST', status: 503, times: 5 });
			const result = await runAction(ctx, op('createAccessCode', { contactId: target.cid }));
			expect(failure(result)).toEqual({
				name: 'NodeApiError',
				message: 'Service Unavailable',
				description: 'The write may or may not have been applied: check in Cloud4Wi before running it again.',
				httpCode: '503',
			});
			expect(apiCalls(ctx.sb)).toEqual([`POST /v2/customers/${target.cid}/otp`]);
		});

		test.each<[string, string, (cid: string) => INodeParameters, (cid: string) => string]>([
			['delete', 'DELETE', (cid) => op('delete', { contactId: cid }), (cid) => `/v1/customers/${cid}`],
			[
				'updateOptIns',
				'PUT',
				(cid) => op('updateOptIns', { contactId: cid, optIns: { optIn: [{ policy: 'privacy', accepted: true }] } }),
				(cid) => `/v1/customers/${cid}/policies`,
			],
		])(
			'a 5xx on an idempotent write (%s) is tried again, as a read: 5 tries, then its error',
			async (_operation, method, parameters, path) => {
				const target = contacts[15];
				ctx.sb.addFault({ method, status: 503, times: 5 });
				const result = await atScale(1 / 20, () => runAction(ctx, parameters(target.cid))); // back-offs of 25, 50, 100, 200 ms
				expect(failure(result)).toEqual({
					name: 'NodeApiError',
					message: 'Service Unavailable',
					description: 'Cloud4Wi had an internal error. Try again later.',
					httpCode: '503',
				});
				expect(apiCalls(ctx.sb)).toEqual(Array.from({ length: 5 }, () => `${method} ${path(target.cid)}`));
				expect(ctx.sb.data.contacts.has(target.cid)).toBe(true);
			},
		);

		test('a delete whose first answer was lost and whose retry finds the contact gone: reported as deleted, once', async () => {
			const target = contacts[16];
			// The first try deletes the contact, but its answer is lost on the way back.
			ctx.sb.addFault({ method: 'DELETE', truncate: true });
			const result = await runAction(ctx, op('delete', { contactId: target.cid }));
			expect(result.error).toBeUndefined();
			expect(result.json).toEqual([{ contactId: target.cid, deleted: true, status: null, alreadyDeleted: true }]);
			expect(apiCalls(ctx.sb)).toEqual([`DELETE /v1/customers/${target.cid}`, `DELETE /v1/customers/${target.cid}`]);
			expect(ctx.sb.data.contacts.has(target.cid)).toBe(false);
		});
	});

	describe('several input items', () => {
		test('with Continue On Fail, the failing middle item becomes an error item and each output is paired with its input', async () => {
			const [a, b] = [contacts[20], contacts[21]];
			const result = await runAction(
				ctx,
				op('get', { contactId: '={{ $json.id }}' }),
				[{ id: a.cid }, { id: `${a.cid}/devices` }, { id: b.cid }],
				{
					continueOnFail: true,
				},
			);
			expect(result.error).toBeUndefined();
			expect(result.json).toEqual([
				a,
				{ error: `Contact ID: "${a.cid}/devices" contains "/", "\\", "?" or "#", which no Cloud4Wi ID has` },
				b,
			]);
			expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(apiCalls(ctx.sb)).toEqual([`GET /v2/customers/${a.cid}`, `GET /v2/customers/${b.cid}`]);
		});

		test('with Continue On Fail, a service error item carries the message, the hint and the status', async () => {
			const a = contacts[22];
			const result = await runAction(
				ctx,
				op('delete', { contactId: '={{ $json.id }}' }),
				[{ id: 'c-gone' }, { id: a.cid }],
				{ continueOnFail: true },
			);
			expect(result.json).toEqual([
				{
					error: 'Contact not found: c-gone',
					description: 'Cloud4Wi has no contact "c-gone". Check the ID.',
					httpCode: '404',
				},
				{ contactId: a.cid, deleted: true, status: 'deleted' },
			]);
			expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		});

		test('without Continue On Fail, the first failing item stops the node', async () => {
			const [a, b] = [contacts[23], contacts[24]];
			const result = await runAction(ctx, op('get', { contactId: '={{ $json.id }}' }), [
				{ id: a.cid },
				{ id: '' },
				{ id: b.cid },
			]);
			expect(failure(result).message).toBe('Contact ID: is empty');
			expect(result.error?.context?.itemIndex).toBe(1);
			// Items run side by side: the one after the failing item may already have been sent.
			expect(apiCalls(ctx.sb)).toContain(`GET /v2/customers/${a.cid}`);
			expect(apiCalls(ctx.sb).every((c) => [a.cid, b.cid].some((cid) => c === `GET /v2/customers/${cid}`))).toBe(true);
		});

		test('without Continue On Fail, the node stops with the first failing item in item order, not the first to fail', async () => {
			const a = contacts[25];
			// Item 0 fails late (its 404 takes 300 ms), item 2 at once (its ID is refused before sending).
			ctx.sb.addFault({ method: 'GET', path: '^/v2/customers/c-gone$', delayMs: 300 });
			const result = await runAction(ctx, op('get', { contactId: '={{ $json.id }}' }), [
				{ id: 'c-gone' },
				{ id: a.cid },
				{ id: '' },
			]);
			expect(result.error?.context?.itemIndex).toBe(0);
			expect(failure(result).message).toBe('Contact not found: c-gone');
			expect(apiCalls(ctx.sb)).toEqual(['GET /v2/customers/c-gone', `GET /v2/customers/${a.cid}`]);
		});

		test('with Max Concurrent Requests 1, items run one after another and nothing after the failing item is sent', async () => {
			const [a, b] = [contacts[23], contacts[24]];
			const result = await runAction(
				ctx,
				op('get', { contactId: '={{ $json.id }}', requestOptions: { maxConcurrentRequests: 1 } }),
				[{ id: a.cid }, { id: '' }, { id: b.cid }],
			);
			expect(failure(result).message).toBe('Contact ID: is empty');
			expect(result.error?.context?.itemIndex).toBe(1);
			expect(apiCalls(ctx.sb)).toEqual([`GET /v2/customers/${a.cid}`]);
		});

		test('a contact ID from an expression makes one request per item, each output paired with its item', async () => {
			const picked = [contacts[30], contacts[31], contacts[32]];
			const result = await runAction(
				ctx,
				op('get', { contactId: '={{ $json.id }}' }),
				picked.map((c) => ({ id: c.cid })),
			);
			expect(result.error).toBeUndefined();
			expect(apiCalls(ctx.sb)).toEqual(picked.map((c) => `GET /v2/customers/${c.cid}`));
			expect(result.json).toEqual(picked);
			expect(result.items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		});

		test('a list per item: every record of an item is paired with that item', async () => {
			const picked = [contacts[33], contacts[34]];
			const result = await runAction(
				ctx,
				op('getDevices', { contactId: '={{ $json.id }}', returnAll: true }),
				picked.map((c) => ({ id: c.cid })),
			);
			expect(result.error).toBeUndefined();
			const perItem = [];
			for (const c of picked)
				perItem.push(((await direct(ctx, `/v2/customers/${c.cid}/devices`)).devices as IDataObject[]) ?? []);
			expect(perItem[0].length).toBeGreaterThan(0);
			expect(perItem[1].length).toBeGreaterThan(0);
			expect(result.json).toEqual([...perItem[0], ...perItem[1]]);
			expect(result.items.map((i) => i.pairedItem)).toEqual([
				...perItem[0].map(() => ({ item: 0 })),
				...perItem[1].map(() => ({ item: 1 })),
			]);
		});
	});
});
