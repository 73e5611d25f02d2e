/** Event kinds the API can filter on (`events` query parameter). */
export const FILTERABLE_EVENT_KINDS = [
	'signup',
	'visit',
	'login',
	'promo',
	'survey',
	'send_email',
	'open_email',
	'click_email',
	'send_sms',
	'click_sms',
] as const;

/** Every kind the event lists can carry; the last three cannot be filtered on the server. */
const EVENT_KINDS = [...FILTERABLE_EVENT_KINDS, 'arriving', 'geo_visit', 'geo_arriving'] as const;

const KIND_NAMES: Record<string, string> = {
	signup: 'Signup',
	visit: 'Visit',
	login: 'Login',
	promo: 'Promo Click',
	survey: 'Survey Answer',
	send_email: 'Email Sent',
	open_email: 'Email Opened',
	click_email: 'Email Link Clicked',
	send_sms: 'SMS Sent',
	click_sms: 'SMS Link Clicked',
	arriving: 'Arriving',
	geo_visit: 'Geo Visit',
	geo_arriving: 'Geo Arriving',
};

export const EVENT_KIND_OPTIONS = EVENT_KINDS.map((value) => ({ name: KIND_NAMES[value], value })).sort((a, b) =>
	a.name.localeCompare(b.name),
);

export const LOCATION_CATEGORIES = [
	'other',
	'consumer electronics',
	'sports center',
	'fast food',
	'disco',
	'pools',
	'bar',
	'ice cream',
	'piano bar',
	'underwear',
	'cinema',
	'computers',
	'footwear',
	'gyms',
	'sandwich',
	'sporting goods',
	'hairstyle',
	'public administration',
	'phone',
	'hotels',
	'pizzeria',
	'coffee',
	'restaurants',
	'clothing',
	'pub',
] as const;

/** Sort fields in the user's words where the API's name is not plain English. */
const SORT_NAMES: Record<string, string> = {
	mktgCommunications: 'Marketing Opt-In',
	termsOfUse: 'Terms of Use',
	privacy: 'Privacy Policy',
	modified_absolute: 'Modified (Absolute)',
	created_absolute: 'Created (Absolute)',
	locations: 'Locations',
	provider: 'Provider',
	system: 'System',
};

export const CONTACT_SORT_FIELDS = [
	'firstName',
	'lastName',
	'gender',
	'birthDate',
	'country',
	'created',
	'privacy',
	'termsOfUse',
	'mktgCommunications',
	'ageVerification',
	'phone',
	'phoneVerified',
	'email',
	'emailVerified',
	'provider',
	'username',
	'locked',
	'locations',
	'system',
	'enabled',
	'type',
	'modified_absolute',
	'created_absolute',
	'totalVisits',
	'visitedLocations',
] as const;

export const CONTACT_SORT_OPTIONS = CONTACT_SORT_FIELDS.map((value) => ({
	name: SORT_NAMES[value] ?? value.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase()),
	value,
})).sort((a, b) => a.name.localeCompare(b.name));
