/** The Simplify option: contacts and events as flat records. */

import { contactProfileOf, simplifyContact, simplifyEvent } from '../../nodes/Cloud4Wi/shared/simplify';

describe('Simplify', () => {
	test('a contact becomes flat: opt-ins as booleans, custom opt-ins by title, segment names', () => {
		const flat = simplifyContact({
			cid: 'c1',
			firstName: 'Ada',
			email: 'ada@example.com',
			policies: [
				{ name: 'privacy', accepted: true },
				{ name: 'mktgCommunications', accepted: false },
				{ name: 'customs.Newsletter', accepted: true },
			],
			segments: [{ cid: 's1', name: 'Regulars' }],
		});
		expect(flat).toMatchObject({
			id: 'c1',
			firstName: 'Ada',
			email: 'ada@example.com',
			privacy: true,
			marketingOptIn: false,
			termsOfUse: null,
			customOptIns: { Newsletter: true },
			segments: ['Regulars'],
		});
	});

	test('a live event becomes who, what, where and when', () => {
		const flat = simplifyEvent({
			organizationId: 'o1',
			customerId: 'c1',
			event: { type: 'visit', id: 'e1l', visit: { duration: 3600 } },
			where: { locationId: 'l1', locationName: 'Milano Centrale' },
			when: { createdAt: '2025-03-01T10:00:00.000Z', createdAtLocal: '2025-03-01T11:00:00', timezone: 'Europe/Rome' },
		});
		expect(flat).toMatchObject({
			id: 'e1l',
			type: 'visit',
			contactId: 'c1',
			locationId: 'l1',
			locationName: 'Milano Centrale',
			createdAt: '2025-03-01T10:00:00.000Z',
			visitDuration: 3600,
		});
	});

	test("a schema-shaped visit (no 'when') takes its times from the visit", () => {
		const flat = simplifyEvent({
			type: 'visit',
			id: 'e2l',
			visit: { startAt: '2025-03-01T10:00:00Z', startAtLocal: '2025-03-01T11:00:00', timezone: 'Europe/Rome' },
		});
		expect(flat).toMatchObject({
			id: 'e2l',
			createdAt: '2025-03-01T10:00:00Z',
			createdAtLocal: '2025-03-01T11:00:00',
			timezone: 'Europe/Rome',
		});
	});

	test('segments without a name are left out of the names, not listed empty', () => {
		const flat = simplifyContact({ cid: 'c1', segments: [{ cid: 's1', name: 'Regulars' }, { cid: 's2' }] });
		expect(flat.segments).toStrictEqual(['Regulars']);
	});

	test("a contact's profile: the customer object, or the answer without its envelope", () => {
		expect(contactProfileOf({ generated: 'x', customer: { cid: 'c1' } })).toEqual({ cid: 'c1' });
		expect(contactProfileOf({ generated: 'x', status: 'ok', cid: 'c1', firstName: 'Ada' })).toEqual({
			cid: 'c1',
			firstName: 'Ada',
		});
	});
});
