import type { IDataObject } from 'n8n-workflow';

type Policy = { name?: string; accepted?: boolean };
type Named = { name?: string };

/** The contact fields people use most, flat: opt-ins become booleans, segments a list of names. */
export function simplifyContact(contact: IDataObject): IDataObject {
	const policies = (Array.isArray(contact.policies) ? contact.policies : []) as Policy[];
	const optIn = (name: string) => policies.find((p) => p.name === name)?.accepted ?? null;
	const customOptIns = Object.fromEntries(
		policies
			.filter((p) => p.name?.startsWith('customs.'))
			.map((p) => [p.name!.slice('customs.'.length), p.accepted ?? null]),
	);
	const segments = (Array.isArray(contact.segments) ? contact.segments : []) as Named[];
	return {
		id: contact.cid ?? contact.id,
		firstName: contact.firstName,
		lastName: contact.lastName,
		email: contact.email,
		emailVerified: contact.emailVerified,
		phone: contact.phone,
		phoneVerified: contact.phoneVerified,
		country: contact.country,
		zipCode: contact.zipCode,
		gender: contact.gender,
		birthDate: contact.birthDate,
		signupMethod: contact.signupMethod,
		locationName: contact.locationName,
		created: contact.created,
		modified: contact.modified,
		lastLogin: contact.lastLogin,
		logins: contact.logins,
		privacy: optIn('privacy'),
		termsOfUse: optIn('termsOfUse'),
		marketingOptIn: optIn('mktgCommunications'),
		ageVerification: optIn('ageVerification'),
		customOptIns,
		segments: segments.map((s) => s.name).filter(Boolean),
	};
}

/** An event of either shape (live or schema) as who, what, where and when in one flat record. */
export function simplifyEvent(record: IDataObject): IDataObject {
	const event = ((record.event as IDataObject | undefined) ?? record) as IDataObject;
	const where = (record.where ?? {}) as IDataObject;
	const when = (record.when ?? {}) as IDataObject;
	const visit = (event.visit ?? {}) as IDataObject;
	const campaign = (event.email ?? event.sms ?? event.survey ?? {}) as IDataObject;
	return {
		id: event.id,
		type: event.type,
		contactId: record.customerId ?? null,
		organizationId: record.organizationId ?? null,
		createdAt: when.createdAt ?? visit.startAt ?? null,
		createdAtLocal: when.createdAtLocal ?? visit.startAtLocal ?? null,
		timezone: when.timezone ?? visit.timezone ?? null,
		locationId: where.locationId ?? null,
		locationName: where.locationName ?? null,
		hotspotId: where.hotspotId ?? null,
		geofenceName: where.geofenceName ?? null,
		visitDuration: visit.duration ?? null,
		signupSource: (event.signup as IDataObject | undefined)?.source ?? null,
		campaignName: campaign.campaignName ?? null,
	};
}

/** The profile inside the answer: `customer` when present, else the answer without its envelope fields. */
export function contactProfileOf(body: IDataObject): IDataObject {
	if (body.customer && typeof body.customer === 'object') return body.customer as IDataObject;
	const profile = { ...body };
	delete profile.generated;
	delete profile.status;
	return profile;
}
