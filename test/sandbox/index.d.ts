/**
 * A local stand-in for the Cloud4Wi REST API (see /work/shared/spec/cloud4wi-api.md), for tests,
 * benchmarks and demos. Plain Node `http`, no dependencies; listens on 127.0.0.1 only.
 */

export interface SandboxOptions {
	/** 0 (default) picks a free port. The host is always 127.0.0.1. */
	port?: number;
	/** Seeded contacts, default 300. Generated lazily from the seed, so 100000 start instantly. */
	contacts?: number;
	/** Seeded historical events over the last 30 days (every kind is present), default 500. */
	events?: number;
	/** Seeded organization WiFi connections over the last 30 days, default 400. */
	connections?: number;
	/** Default 25. */
	hotspots?: number;
	/** Default 12 (one per demo city). */
	locations?: number;
	/** Default 6. */
	segments?: number;
	/** Token lifetime, default 86400000 (one day). */
	tokenTtlMs?: number;
	/** Status for a missing, unknown, expired or revoked bearer token, default 403. Logout always answers 401. */
	expiredStatus?: 401 | 403;
	/** A scroll id expires this long after its last use, default 120000. */
	scrollTtlMs?: number;
	/** Seed of the demo data, default 1. Same seed and same `now` give the same data. */
	seed?: number;
	/** Initial sandbox time (ms since epoch), default Date.now(). Seeded data is placed relative to it. */
	now?: number;
	/** Every API answer (login included, /__admin not) waits this long, default 0. */
	latencyMs?: number;
	/** Every API answer also waits a random 0 to this many ms more (seeded), default 0. */
	latencyJitterMs?: number;
	/** Above this many API requests being served at once, the extra one is answered 429 at once, doing no work. 0 (default): no limit. */
	maxInFlight?: number;
	/** Above this many API requests accepted in the last second (a sliding window), a 429 at once. 0 (default): no limit. */
	maxPerSecond?: number;
	/** The window maxPerSecond counts over, in seconds, default 1 (60 for a per-minute limit). */
	windowS?: number;
	/** Retry-After (seconds) of those 429s, default 1. */
	retryAfterS?: number;
	/** Those 429s leave after this many ms (a gateway as slow to refuse as to answer), default 0: at once. */
	refusalLatencyMs?: number;
	/** Those 429s take as long as an answer (latencyMs), and the refused request counts as in flight meanwhile. */
	slowRefusals?: boolean;
	/** This share (0-100) of the requests served lose their connection before the answer (seeded), default 0. */
	cutAnswersPercent?: number;
	/** Demo credentials and organization; override only if a test needs other values. */
	clientKey?: string;
	clientSecret?: string;
	organizationId?: string;
}

/** How the sandbox answers under load (each as in SandboxOptions); `setLoad` changes it while running. */
export interface SandboxLoad {
	latencyMs: number;
	latencyJitterMs: number;
	maxInFlight: number;
	maxPerSecond: number;
	windowS: number;
	retryAfterS: number;
	refusalLatencyMs: number;
	slowRefusals: boolean;
	cutAnswersPercent: number;
}

export interface SandboxCredentials {
	clientKey: string;
	clientSecret: string;
	organizationId: string;
}

/**
 * Sandbox time: real time plus an offset. set() and advance() move the offset, and the clock keeps
 * running from there. Token expiry, scroll expiry and event visibility all read it.
 */
export interface SandboxClock {
	now(): number;
	/** Returns the new now(). */
	set(ms: number): number;
	/** Returns the new now(). */
	advance(ms: number): number;
}

export interface LoggedRequest {
	method: string;
	/** Pathname without the query string. */
	path: string;
	/** Last value wins for repeated names. */
	query: Record<string, string>;
	/** Parsed JSON, the raw text if it was not JSON, or undefined when empty. */
	body: unknown;
	authorization?: string;
	/** 0 while in flight, and for requests whose socket a fault destroyed. */
	status: number;
	/** Sandbox time of arrival. */
	at: number;
	/** Served, then its connection was cut before the answer (cutAnswersPercent). */
	cut?: true;
	/** Sandbox time the answer (or refusal) went out; absent while in flight. */
	doneAt?: number;
}

export interface Fault {
	/** Matches any method when absent. */
	method?: string;
	/** Regular-expression source tested against the pathname; matches any path when absent. */
	path?: string;
	/** Answer with this status instead of serving the request. */
	status?: number;
	/** How many matching requests it affects, default 1; then it disappears. */
	times?: number;
	/** Let this many matching requests through untouched first, default 0 (e.g. fail only the second page). */
	skip?: number;
	/** Expire every issued token when it applies; without a status the request is then served normally (and refused). */
	expireTokens?: boolean;
	/** Expire every issued token once this request is answered (it is served with its token). */
	expireTokensAfter?: boolean;
	/** Seconds, sent as Retry-After. */
	retryAfter?: number | string;
	/** Sent as the Location header (with a 3xx `status`: a redirect). */
	location?: string;
	/** Wait before answering (with `status`, or normally when there is none). */
	delayMs?: number;
	/** Response body, default { message }. */
	body?: object;
	/** Drop the connection without answering. */
	destroy?: boolean;
	/** Send this text as the body, as-is (with `status`, default 200), e.g. a proxy's HTML error page. */
	rawBody?: string;
	/** Content-Type of `rawBody`, default text/html. */
	contentType?: string;
	/** Announce the whole body's Content-Length, send half of it, then drop the connection (with rawBody, or the real answer). */
	truncate?: boolean;
	/** Send 200 and its headers at once, then one byte of body every this many ms, never ending. */
	trickleMs?: number;
	/** Send 200 and a body as fast as the client reads it, never ending. */
	endless?: boolean;
	/**
	 * Send the last 2xx answer to the same method and path again, without serving the request (a scroll is not moved), as a
	 * service that ignores the scroll id or offset does. Use `skip` to let the first page through; with no earlier answer
	 * to send again, the request is served normally.
	 */
	repeat?: boolean;
}

export type FilterableEventKind =
	| 'signup'
	| 'visit'
	| 'login'
	| 'promo'
	| 'survey'
	| 'send_email'
	| 'open_email'
	| 'click_email'
	| 'send_sms'
	| 'click_sms';
export type EventKind = FilterableEventKind | 'arriving' | 'geo_visit' | 'geo_arriving';

export interface Policy {
	/** 'privacy', 'termsOfUse', 'mktgCommunications', 'ageVerification' or 'customs.<Title>'. */
	name: string;
	accepted: boolean;
}

export interface ContactMetrics {
	frequencyMonthlyVisit: number;
	compassTopLocation: string | null;
	compassTopLocationCount: number;
	topFrequencyBuckets: string;
	lastVisitVenue: string | null;
	prefVisitWDay: string | null;
	lastVisitDateUtc: string | null;
	avgVisitLength: number;
	countVisitedLocations: number;
	prefVisitTimebucket: string | null;
	prefVisitTimeHour: string | null;
	lastVisitDateBusiness: string | null;
	countTotalVisits: number;
	conversionRate: number;
	avgDaysBetweenVisits: number;
}

/** The spec's Contact shape; absent values are null. */
export interface Contact {
	cid: string;
	title: string | null;
	firstName: string;
	lastName: string;
	gender: 'male' | 'female' | 'other';
	/** YYYY-MM-DD */
	birthDate: string | null;
	/** MM-DD */
	birthDay: string | null;
	age: string | null;
	/** ISO 3166-1 alpha-2 */
	country: string;
	zipCode: string;
	created: string;
	modified: string;
	email: string | null;
	emailVerified: boolean;
	/** E.164 */
	phone: string | null;
	phoneVerified: boolean;
	signupMethod: string;
	externalIdentityId: string | null;
	username: string;
	locked: boolean;
	organizationCid: string;
	locationCid: string | null;
	system: string;
	enabled: boolean;
	type: string;
	locationName: string | null;
	personalId: string | null;
	externalSource: string | null;
	lastLogin: string;
	/** Comma-separated segment ids. */
	segmentCids: string;
	logins: number;
	policies: Policy[];
	segments: Array<{ cid: string; name: string }>;
	extId: { id: string | null; prop1: string | null; prop2: string | null };
	metrics: ContactMetrics;
}

/**
 * The contacts of the store, array-like: contacts[0], length, iteration, find/filter/map.
 * Positions count live contacts in seeded (creation) order. Records handed out are the live ones:
 * editing them changes what the API returns.
 */
export interface ContactStore extends Iterable<Contact> {
	readonly [position: number]: Contact | undefined;
	readonly length: number;
	readonly size: number;
	get(cid: string): Contact | undefined;
	has(cid: string): boolean;
	/** Negative positions count from the end. */
	at(position: number): Contact | undefined;
	/** Same as DELETE /v1/customers/{cid}; false if there was no such live contact. */
	delete(cid: string): boolean;
	values(): IterableIterator<Contact>;
	toArray(): Contact[];
	find(predicate: (contact: Contact) => boolean): Contact | undefined;
	filter(predicate: (contact: Contact) => boolean): Contact[];
	some(predicate: (contact: Contact) => boolean): boolean;
	map<T>(fn: (contact: Contact) => T): T[];
	forEach(fn: (contact: Contact) => void): void;
	/** cid of the contact seeded at this index (deleted or not). */
	cidOf(index: number): string;
	/** Seeded index of a cid, or -1. */
	indexOf(cid: string): number;
}

export interface EventVisit {
	startAt: string;
	startAtLocal: string;
	timezone: string;
	/** Seconds. */
	duration: number;
	/** Geo events only. */
	properties?: { appId: string; appBundle: string; projectId: string; appOs: string };
}

export interface CampaignMessage {
	campaignId: string;
	communicationId: string;
	channel: string;
	campaignName: string;
}

/** An event in the live-data shape of GET /v1/organizations/{cid}/events. */
export interface LiveEvent {
	/** Absent on geo events. */
	organizationId?: string;
	customerId: string;
	event: {
		type: EventKind;
		/** Ends in 'l' (WiFi kinds) or 'g' (geo kinds). */
		id: string;
		visit?: EventVisit;
		signup?: { source: string };
		promo?: { type: string };
		survey?: {
			campaignId: string;
			campaignName: string;
			answerId: string;
			questions: { question_1: string };
			answers: { answer_1: string };
		};
		email?: CampaignMessage & { email: string };
		sms?: CampaignMessage & { phone: string; prefix: string };
		[extra: string]: unknown;
	};
	where: {
		locationId?: string;
		locationName?: string;
		/** WiFi events at an access point (not on visit or campaign messages). */
		hotspotId?: string;
		geofenceName?: string;
		geofenceExtId?: string;
		geofenceId?: string;
		geofenceMetadata?: unknown[];
		geofenceJSON?: { type: string; coordinates: [number, number]; radius: number };
		[extra: string]: unknown;
	};
	when: {
		/** UTC, ISO 8601 with ms and Z. */
		createdAt: string;
		/** Wall time at the venue, 'YYYY-MM-DDTHH:mm:ss.SSS' (no offset). */
		createdAtLocal: string;
		/** IANA zone name. */
		timezone: string;
	};
	[extra: string]: unknown;
}

/** Organization-level WiFi connection (accounting) record. */
export interface WifiConnection {
	customerId: string;
	organizationId: string;
	start: string;
	startBusiness: string;
	stop: string;
	stopBusiness: string;
	/** Seconds. */
	duration: number;
	/** Bytes. */
	traffic: number;
	locationName: string;
	locationId: string;
	hotspotName: string;
	hotspotIdentifier: string;
	hotspotId: string;
	latitude: number;
	longitude: number;
	macAddressClient: string;
	ipAddressClient: string;
	terminateCause: string;
}

/** A stored hotspot: the spec's Hotspot fields (what the API returns) plus the create-body extras. */
export interface Hotspot {
	id: string;
	name: string;
	description: string;
	firmware: string | null;
	vendor: string;
	hotspotIdentifier: string;
	date: string;
	macAddress: string | null;
	venueId: string;
	country: string;
	city: string;
	address: string;
	latitude: number;
	longitude: number;
	deleted: boolean;
	organizationId: string;
	routerType: string;
	ssid: string | null;
	state: string;
	zip: string;
	enabled: boolean;
}

/** A stored location: the spec's Location fields (what the API returns) plus the create-body extras. */
export interface Location {
	id: string;
	name: string;
	/** Spelled as the spec spells it. */
	organziationId: string;
	lat: number | null;
	lng: number | null;
	timezone: string;
	address: { address: string; city: string; state: string; zip: string; country: string };
	externalId: string | null;
	tags: string[];
	description: string;
	categoryName: string;
	loginProfileId: string;
	locationProfileId: string;
	welcomePortalId: string;
	enabled: boolean;
	onNet: boolean;
	organizationPlanId?: string | null;
}

export interface Segment {
	id: string;
	name: string;
	description: string;
	lastRun: string;
	created: string;
	modified: string;
	segmentStatus: string;
	audience: number;
}

/** The in-memory store; edits show through the API. */
export interface SandboxData {
	contacts: ContactStore;
	events: LiveEvent[];
	connections: WifiConnection[];
	hotspots: Hotspot[];
	locations: Location[];
	segments: Segment[];
}

export interface InjectedEvent {
	type: EventKind;
	/** Default: a seeded contact (unknown ids are accepted). */
	customerId?: string;
	/** ms or ISO 8601; default clock.now(). */
	createdAt?: string | number;
	/** Visible to the API once clock >= createdAt + this; default 0. */
	visibleAfterMs?: number;
	/** Default: a seeded location. Must exist. */
	locationId?: string;
	/**
	 * Anything else is deep-merged into the built event: visit, signup, promo, survey, email and sms
	 * into event{} (e.g. { signup: { source: 'kiosk' } }), other keys at the top (e.g. { where: { hotspotId: 'x' } }).
	 */
	[extra: string]: unknown;
}

export interface Sandbox {
	/** 'http://127.0.0.1:PORT' */
	readonly url: string;
	readonly credentials: SandboxCredentials;
	readonly organizationId: string;
	readonly clock: SandboxClock;
	/** API requests (not /__admin), oldest first. */
	readonly requests: LoggedRequest[];
	clearRequests(): void;
	/** Successful logins so far. */
	readonly logins: number;
	/** 429s answered for the maxInFlight or maxPerSecond limit since the start or the last clearRequests(). */
	readonly rateLimited: number;
	/** Most API requests served at once since the start or the last clearRequests(). */
	readonly maxSeenInFlight: number;
	/** Changes the load while running; returns all of it. */
	setLoad(load: Partial<SandboxLoad>): SandboxLoad;
	/** Every token issued so far becomes expired; returns how many were still valid. */
	expireTokens(): number;
	setExpiredStatus(status: 401 | 403): void;
	addFault(fault: Fault): void;
	clearFaults(): void;
	/** Returns the created events (live shape, with ids). Throws on an unknown type or location. */
	injectEvents(events: InjectedEvent | ReadonlyArray<InjectedEvent | Record<string, unknown>>): LiveEvent[];
	readonly data: SandboxData;
	close(): Promise<void>;
}

export declare const DEFAULTS: Readonly<{
	port: number;
	contacts: number;
	events: number;
	connections: number;
	hotspots: number;
	locations: number;
	segments: number;
	tokenTtlMs: number;
	expiredStatus: 401 | 403;
	scrollTtlMs: number;
	seed: number;
	clientKey: string;
	clientSecret: string;
	organizationId: string;
	latencyMs: number;
	latencyJitterMs: number;
	maxInFlight: number;
	maxPerSecond: number;
	windowS: number;
	retryAfterS: number;
	refusalLatencyMs: number;
	slowRefusals: boolean;
	cutAnswersPercent: number;
}>;

/** Starts a sandbox; resolves once it listens. */
export declare function createSandbox(options?: SandboxOptions): Promise<Sandbox>;
