'use strict';
// Fixed vocabularies of the demo organization: names, cities, campaigns, allowed values of the spec.

const FIRST_NAMES = {
	male: ['Marco', 'Luca', 'Giovanni', 'Matteo', 'Alessandro', 'James', 'Oliver', 'Liam', 'Noah', 'Thomas', 'Pierre', 'Hans', 'Carlos', 'Daniel', 'David'],
	female: ['Giulia', 'Sofia', 'Chiara', 'Francesca', 'Elena', 'Emma', 'Olivia', 'Amelia', 'Charlotte', 'Marie', 'Anna', 'Lucia', 'Laura', 'Sarah', 'Isabella'],
	other: ['Alex', 'Sam', 'Robin', 'Andrea', 'Kim'],
};

const LAST_NAMES = [
	'Rossi', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti',
	'Costa', 'Ferrari', 'Esposito', 'Russo', 'Moretti', 'Barbieri', 'Fontana', 'Smith', 'Johnson', 'Brown',
	'Taylor', 'Wilson', 'Martin', 'Bernard', 'Dubois', 'Müller', 'Schmidt', 'García', 'Fernández', 'López',
];

/** Countries of contacts: E.164 dialling code, mobile prefix and national number length, postcode pattern (# digit, A letter). */
const COUNTRIES = [
	{ code: 'IT', weight: 40, dial: '+39', mobile: ['320', '333', '347', '393'], nationalLength: 10, zip: '#####' },
	{ code: 'US', weight: 15, dial: '+1', mobile: ['212', '312', '415', '646'], nationalLength: 10, zip: '#####' },
	{ code: 'GB', weight: 15, dial: '+44', mobile: ['7700', '7911', '7423'], nationalLength: 10, zip: 'SW# #AA' },
	{ code: 'FR', weight: 10, dial: '+33', mobile: ['6', '7'], nationalLength: 9, zip: '75###' },
	{ code: 'DE', weight: 10, dial: '+49', mobile: ['151', '160', '176'], nationalLength: 11, zip: '10###' },
	{ code: 'ES', weight: 10, dial: '+34', mobile: ['6', '7'], nationalLength: 9, zip: '28###' },
];

const EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net'];

/** One demo venue per city; more locations than cities reuse the cities. */
const CITIES = [
	{ city: 'Milano', state: 'MI', country: 'IT', zip: '20121', timezone: 'Europe/Rome', lat: 45.4642, lng: 9.19, street: 'Via Dante' },
	{ city: 'Roma', state: 'RM', country: 'IT', zip: '00186', timezone: 'Europe/Rome', lat: 41.9028, lng: 12.4964, street: 'Via del Corso' },
	{ city: 'Firenze', state: 'FI', country: 'IT', zip: '50123', timezone: 'Europe/Rome', lat: 43.7696, lng: 11.2558, street: 'Via dei Calzaiuoli' },
	{ city: 'Livorno', state: 'LI', country: 'IT', zip: '57123', timezone: 'Europe/Rome', lat: 43.5485, lng: 10.3106, street: 'Via Grande' },
	{ city: 'London', state: 'England', country: 'GB', zip: 'W1D 1BS', timezone: 'Europe/London', lat: 51.5136, lng: -0.1365, street: 'Oxford Street' },
	{ city: 'Paris', state: 'Île-de-France', country: 'FR', zip: '75001', timezone: 'Europe/Paris', lat: 48.8606, lng: 2.3376, street: 'Rue de Rivoli' },
	{ city: 'Berlin', state: 'Berlin', country: 'DE', zip: '10117', timezone: 'Europe/Berlin', lat: 52.5163, lng: 13.3777, street: 'Friedrichstraße' },
	{ city: 'Madrid', state: 'Madrid', country: 'ES', zip: '28013', timezone: 'Europe/Madrid', lat: 40.4168, lng: -3.7038, street: 'Gran Vía' },
	{ city: 'New York', state: 'NY', country: 'US', zip: '10001', timezone: 'America/New_York', lat: 40.7506, lng: -73.9935, street: 'Broadway' },
	{ city: 'Chicago', state: 'IL', country: 'US', zip: '60611', timezone: 'America/Chicago', lat: 41.8947, lng: -87.6244, street: 'N Michigan Ave' },
	{ city: 'Los Angeles', state: 'CA', country: 'US', zip: '90036', timezone: 'America/Los_Angeles', lat: 34.0736, lng: -118.4004, street: 'Wilshire Blvd' },
	{ city: 'Sydney', state: 'NSW', country: 'AU', zip: '2000', timezone: 'Australia/Sydney', lat: -33.8688, lng: 151.2093, street: 'George Street' },
];

const VENUE_KINDS = ['Flagship', 'Store', 'Outlet', 'Mall', 'Airport', 'Station'];
const LOCATION_TAGS = ['retail', 'flagship', 'outlet', 'mall', 'airport', 'downtown', 'travel', 'food'];

/** The 25 values the spec allows for a location's categoryName. */
const LOCATION_CATEGORIES = [
	'other', 'consumer electronics', 'sports center', 'fast food', 'disco', 'pools', 'bar', 'ice cream',
	'piano bar', 'underwear', 'cinema', 'computers', 'footwear', 'gyms', 'sandwich', 'sporting goods',
	'hairstyle', 'public administration', 'phone', 'hotels', 'pizzeria', 'coffee', 'restaurants', 'clothing', 'pub',
];

const ROUTERS = [
	{ routerType: 'meraki', vendor: 'Cisco Meraki', firmware: 'MR 29.7' },
	{ routerType: 'aruba', vendor: 'Aruba', firmware: 'ArubaOS 8.11' },
	{ routerType: 'ruckus', vendor: 'Ruckus', firmware: 'SmartZone 6.1' },
	{ routerType: 'ubiquiti', vendor: 'Ubiquiti', firmware: 'UniFi 6.5' },
	{ routerType: 'mikrotik', vendor: 'MikroTik', firmware: 'RouterOS 7.12' },
	{ routerType: 'fortinet', vendor: 'Fortinet', firmware: 'FortiOS 7.4' },
];

/** Device manufacturer prefixes (OUIs) for client MAC addresses. */
const DEVICE_OUIS = ['3C:22:FB', 'F0:18:98', 'A4:83:E7', '8C:85:90', 'DC:A6:32', '40:4E:36'];

const SEGMENT_NAMES = [
	'VIP guests', 'Frequent visitors', 'New this month', 'Newsletter subscribers',
	'Lapsed guests', 'Weekend visitors', 'Families', 'Business travellers',
];

/** Custom opt-ins the organization defines; their policy keys are 'customs.<title>'. */
const CUSTOM_OPTINS = ['Newsletter', 'Loyalty Club', 'Partner Offers'];
const STANDARD_POLICIES = ['privacy', 'termsOfUse', 'mktgCommunications', 'ageVerification'];

const CAMPAIGNS = [
	{ campaignId: 'cmp-welcome-01', campaignName: 'Welcome Journey' },
	{ campaignId: 'cmp-spring-02', campaignName: 'Spring Sale' },
	{ campaignId: 'cmp-loyalty-03', campaignName: 'Loyalty Reminder' },
	{ campaignId: 'cmp-winback-04', campaignName: 'We Miss You' },
];

const SURVEYS = [
	{ question: 'How was your visit today?', answers: ['Great', 'Good', 'Could be better'] },
	{ question: 'Would you recommend us to a friend?', answers: ['Yes', 'Maybe', 'No'] },
];

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

module.exports = {
	FIRST_NAMES,
	LAST_NAMES,
	COUNTRIES,
	EMAIL_DOMAINS,
	CITIES,
	VENUE_KINDS,
	LOCATION_TAGS,
	LOCATION_CATEGORIES,
	ROUTERS,
	DEVICE_OUIS,
	SEGMENT_NAMES,
	CUSTOM_OPTINS,
	STANDARD_POLICIES,
	CAMPAIGNS,
	SURVEYS,
	WEEKDAYS,
};
