import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { EVENT_KIND_OPTIONS } from '../Cloud4Wi/shared/constants';
import { byDisplayName, organizationIdField } from '../Cloud4Wi/shared/descriptions';
import { eventId, kindFilter, utcMs } from '../Cloud4Wi/shared/events';
import { loadOptions } from '../Cloud4Wi/shared/methods';
import { isRepeatedPage, MAX_PAGE_SIZE, pagesOf } from '../Cloud4Wi/shared/paginate';
import { contactProfileOf, simplifyContact, simplifyEvent } from '../Cloud4Wi/shared/simplify';
import type { PathId } from '../Cloud4Wi/shared/path';
import { pathIdProblem } from '../Cloud4Wi/shared/path';
import { timing } from '../Cloud4Wi/shared/timing';
import { credentialsOf, startRun } from '../Cloud4Wi/shared/runs';
import { apiPath, cloud4WiApiRequest, isTimeout } from '../Cloud4Wi/shared/transport';
import {
	commaList,
	notDateTimeProblem,
	notOnOffProblem,
	onOffOf,
	organizationIdOf,
	toIsoInstant,
} from '../Cloud4Wi/shared/formats';

/** Events can become visible to the API up to this long after their `createdAt`, so every poll looks back this far. */
const LATE_MS = 10 * 60 * 1000;
/** The largest page, so a poll with nothing new is one request up to 10,000 events per look-back window. */
const PAGE_SIZE = MAX_PAGE_SIZE;
/** Fetch Test Event looks for a matching event among this many of the latest. */
const SAMPLE_SIZE = 1000;
/** Cap on remembered ids (about 2 MB of static data); reached only above 50,000 matching events per ten minutes. */
const MAX_SEEN = 50_000;
/** Share of n8n's poll budget spent reading before returning what was read. */
const BUDGET_SHARE = 0.8;
/** Share of n8n's poll budget after which no request starts or goes on (the rest is n8n's). */
const REQUEST_SHARE = 0.9;

/** What the trigger remembers between polls, in the workflow's static data (so it survives restarts and works in queue mode). */
interface PollState {
	/** Lower bound (ms) of the next query: everything older was already read, or predates activation. */
	since: number;
	/** Emitted event ids still inside the look-back window, with their `createdAt` (ms), or when first listed if they have none. Read as own keys only (see `seenIn`). */
	seen: Record<string, number>;
}

/** The remembered ids as a Map: looked up on the object, an id such as "constructor" or "__proto__" would find Object's own members. */
function seenIn(state: PollState): Map<string, number> {
	return new Map(
		Object.entries(state.seen ?? {}).filter((entry): entry is [string, number] => typeof entry[1] === 'number'),
	);
}

/** When the event says it was created (ms): `when.createdAt` of the live shape; NaN for the spec's schema form, which has no `when`. */
function createdAtOf(record: IDataObject): number {
	const when = (record.when ?? {}) as IDataObject;
	return utcMs(when.createdAt);
}

/** A time the event was created no earlier than (ms): its creation time, else a visit's start (a visit is recorded when the guest leaves). */
function createdNotBefore(record: IDataObject): number {
	const at = createdAtOf(record);
	if (!Number.isNaN(at)) return at;
	const visit = (((record.event ?? record) as IDataObject).visit ?? {}) as IDataObject;
	return utcMs(visit.startAt);
}

export class Cloud4WiTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Cloud4Wi Trigger',
		name: 'cloud4WiTrigger',
		icon: { light: 'file:cloud4wi.svg', dark: 'file:cloud4wi.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].length ? $parameter["events"].join(", ").replace(/_/g, " ") : "all events"}}',
		// n8n's node panel merges this trigger with the Cloud4Wi node and shows this text for both: it says what the pair does.
		description:
			'Guest WiFi contacts and their opt-ins, events, WiFi connections, hotspots and locations; starts a workflow on each new signup, visit, login or campaign interaction',
		defaults: { name: 'Cloud4Wi Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'cloud4WiApi', required: true }],
		properties: [
			organizationIdField,
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: EVENT_KIND_OPTIONS,
				default: [],
				description: 'Kinds of event that start the workflow; none means every kind',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: byDisplayName([
					{
						displayName: 'Include Contact Profile',
						name: 'includeContact',
						type: 'boolean',
						default: false,
						description:
							'Whether to add the contact’s name, email, phone and opt-ins to each event (one request per distinct contact per poll)',
					},
					{
						displayName: 'Location Names or IDs',
						name: 'locationIds',
						type: 'multiOptions',
						typeOptions: { loadOptionsMethod: 'getLocations' },
						default: [],
						description:
							'Only events at these locations. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
					},
					{
						displayName: 'Simplify',
						name: 'simplify',
						type: 'boolean',
						default: false,
						description: 'Whether to return a flat record with who, what, where and when instead of the full event',
					},
					{
						displayName: 'Start From',
						name: 'startFrom',
						type: 'options',
						options: [
							{ name: 'Now', value: 'now', description: 'Only events that happen after activation' },
							{ name: 'A Date', value: 'date', description: 'Also the events since a date, on first activation' },
						],
						default: 'now',
						description: 'Where the first activation starts reading events',
					},
					{
						displayName: 'Start Date',
						name: 'startDate',
						type: 'dateTime',
						default: '',
						displayOptions: { show: { startFrom: ['date'] } },
						description: 'On first activation, emit events created since this date',
					},
				]),
			},
		],
	};

	methods = { loadOptions };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const startedAt = Date.now();
		const choices = choicesOf(this);
		const budget = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : timing.pollBudgetMs;
		await startRun(this, { deadline: startedAt + budget * REQUEST_SHARE });
		const list = await eventListOf(this);
		const { options } = choices;
		if (this.getMode() === 'manual') {
			const latest = await latestEvent.call(this, list, choices);
			return [await shapeEvents.call(this, [latest], options, list.organizationId)];
		}
		const staticData = this.getWorkflowStaticData('node');
		const state = await stateOf.call(this, staticData, options, list, startedAt);
		if (!state) return null; // first activation from now: it remembered where to start, and emits nothing
		const read = await readNew.call(this, list, choices, state, startedAt + budget * BUDGET_SHARE);
		const emitted = read.emitted();
		const events = emitted.map(([, f]) => f.event);
		const items = emitted.length ? await shapeEvents.call(this, events, options, list.organizationId) : [];
		// Written only now, after every request succeeded: a failed poll leaves the state as it was.
		staticData.state = read.stateAfter(emitted) satisfies PollState;
		return items.length ? [items] : null;
	}
}

/** The trigger's choices, checked before any request: its on/off options, and which events it wants. */
interface Choices {
	options: IDataObject;
	/** The kinds the service is asked to filter, when it can filter them all. */
	kinds?: string;
	wanted: (event: IDataObject) => boolean;
}

function choicesOf(ctx: IPollFunctions): Choices {
	const options = { ...(ctx.getNodeParameter('options', {}) as IDataObject) };
	// On/off options from an expression may be text: "false" must not read as on.
	for (const [name, label] of [
		['includeContact', 'Include Contact Profile'],
		['simplify', 'Simplify'],
	] as const) {
		const value = onOffOf(options[name] ?? false);
		if (value === undefined) {
			throw new NodeOperationError(ctx.getNode(), `Options > ${label}: ${notOnOffProblem(options[name])}`);
		}
		options[name] = value;
	}
	// From a dropdown a list; from an expression possibly a comma-separated string.
	const { entries: kinds, problem: kindProblem } = commaList(ctx.getNodeParameter('events', []));
	if (kindProblem) throw new NodeOperationError(ctx.getNode(), `Events: ${kindProblem}`);
	const { entries: locationIds, problem: locationProblem } = commaList(options.locationIds);
	for (const problem of [locationProblem, ...locationIds.map(pathIdProblem)]) {
		if (problem) throw new NodeOperationError(ctx.getNode(), `Options > Location Names or IDs: ${problem}`);
	}
	const locations = new Set(locationIds);
	const filter = kindFilter(kinds);
	// An event in the schema form has no `where`: with locations chosen it is left out, as nothing says it happened at one of them.
	const wanted = (e: IDataObject) =>
		filter.keep(e) &&
		(locations.size === 0 || locations.has(String(((e.where ?? {}) as IDataObject).locationId ?? '')));
	return { options, kinds: filter.query, wanted };
}

/** The organization's event list the trigger reads. */
interface EventList {
	path: string;
	organizationId: string;
	notFound: string;
	scopes: string;
}

async function eventListOf(ctx: IPollFunctions): Promise<EventList> {
	const org = organizationIdOf(ctx.getNodeParameter('organizationId', ''), await credentialsOf(ctx));
	const organizationId = org.id;
	const problem = pathIdProblem(organizationId);
	if (problem) {
		throw new NodeOperationError(ctx.getNode(), `${org.label}: ${problem}`, {
			description: 'Enter the organization ID here or set a default organization ID in the credential.',
		});
	}
	const path = apiPath`/v1/organizations/${organizationId as PathId}/events`;
	return {
		path,
		organizationId,
		notFound: `organization "${organizationId}"`,
		scopes: 'organization_read, events_read',
	};
}

/** Fetch Test Event: the most recent matching event, without touching what the active trigger remembers. */
async function latestEvent(this: IPollFunctions, list: EventList, choices: Choices): Promise<IDataObject> {
	const { path, notFound, scopes } = list;
	const { body } = await cloud4WiApiRequest.call(this, {
		method: 'GET',
		path,
		query: { events: choices.kinds, sortBy: 'utcTime', sortReverse: true, size: SAMPLE_SIZE },
		notFound,
		scopes,
	});
	const latest = ((body.events ?? []) as IDataObject[]).find(choices.wanted);
	if (!latest) {
		throw new NodeApiError(
			this.getNode(),
			{ message: 'No matching event found' },
			{
				message: 'No matching event found',
				description: `None of the latest ${SAMPLE_SIZE} events matches the chosen kinds and locations. Trigger one (e.g. sign up on the guest WiFi) and try again.`,
			},
		);
	}
	return latest;
}

/** What the trigger remembers; none on a first activation from now, which only remembers where to start. */
async function stateOf(
	this: IPollFunctions,
	staticData: IDataObject,
	options: IDataObject,
	list: EventList,
	startedAt: number,
): Promise<PollState | undefined> {
	const state = staticData.state as PollState | undefined;
	if (state) return state;
	if (options.startFrom !== 'date') {
		// First activation from now: remember where to start, emit nothing. Events are dated by the service's clock, so
		// "now" is its clock when it is behind n8n's (else every event created after activation would be dated before it).
		const clock = await serviceNow.call(this, list, startedAt);
		staticData.state = { since: clock < startedAt ? clock : startedAt, seen: {} } satisfies PollState;
		return undefined;
	}
	const since = toIsoInstant(options.startDate, this.getTimezone());
	if (!since) {
		throw new NodeOperationError(this.getNode(), `Options > Start Date: ${notDateTimeProblem(options.startDate)}`, {
			description: 'Use a form like 2025-03-01T09:30:00Z.',
		});
	}
	return { since: Date.parse(since), seen: {} };
}

/** Reads the events listed since the window's start, in creation order, until they run out or the time to read does. */
async function readNew(
	this: IPollFunctions,
	list: EventList,
	choices: Choices,
	state: PollState,
	readUntil: number,
): Promise<PollRead> {
	const read = new PollRead(state, choices.wanted);
	const { path, notFound, scopes } = list;
	const query = {
		dateStart: new Date(state.since).toISOString(),
		events: choices.kinds,
		sortBy: 'utcTime',
		sortReverse: false,
	};
	const scroll = { style: 'scroll', idParam: 'scrollId', idField: 'scrollId', open: { enableScroll: true } } as const;
	const pages = pagesOf.call(this, { method: 'GET', path, query, notFound, scopes }, 'events', scroll, PAGE_SIZE);
	try {
		for await (const { records, body } of pages) {
			read.take(records, body);
			if (Date.now() > readUntil) {
				// Out of time: hand over what was read; the next poll resumes from the last time read (`readUpTo`) if in order.
				read.complete = false;
				break;
			}
		}
	} catch (error) {
		// A page that hangs past the poll's time, or a repeated page after new events: hand over what was read; the next poll resumes there.
		const failure = error as NodeApiError; // from the transport or the paging: already an n8n error
		const handOver = read.pagesRead > 0 && (isTimeout(failure) || (isRepeatedPage(failure) && read.fresh.size > 0));
		if (!handOver) throw failure;
		read.complete = false;
	}
	return read;
}

/** What one poll read: the new matching events, and how far the list was read, by which clock. */
class PollRead {
	readonly fresh = new Map<string, { event: IDataObject; at: number }>();
	pagesRead = 0;
	complete = true;
	private readonly seen: Map<string, number>;
	/** Latest creation time read that a clock vouches for: everything not read yet was created no earlier, if the list is in creation order. */
	private readUpTo: number;
	/** Whether the list came in creation order, as asked (`sortBy`): a service listing newest first, say, vouches for nothing unread. */
	private inOrder = true;
	private lastListed = Number.NEGATIVE_INFINITY;
	private serverNow = Number.NaN;

	constructor(
		private readonly state: PollState,
		private readonly wanted: (event: IDataObject) => boolean,
	) {
		this.seen = seenIn(state);
		this.readUpTo = state.since;
	}

	/** One page of the list: its new matching events kept, how far it got noted. */
	take(records: IDataObject[], body: IDataObject): void {
		const { state } = this;
		this.pagesRead++;
		if (Number.isNaN(this.serverNow)) this.serverNow = utcMs(body.generated);
		// Event times past the service's clock (`generated`; without it, n8n's) are wrong and say nothing about how far the read got.
		const clock = Number.isNaN(this.serverNow) ? Date.now() : this.serverNow;
		for (const event of records) {
			const at = createdAtOf(event);
			if (at < this.lastListed) this.inOrder = false;
			else if (at > this.lastListed) this.lastListed = at; // NaN (no time) is neither
			const id = eventId(event);
			if (!id) continue;
			if (at < state.since) continue; // NaN (no time) is never below: the service listed it in the window
			const notBefore = createdNotBefore(event);
			if (notBefore <= clock) this.readUpTo = Math.max(this.readUpTo, notBefore);
			// Without a time, an event counts from when it was first listed (it was created by then), never before the window.
			if (!this.seen.has(id) && this.wanted(event))
				this.fresh.set(id, { event, at: Number.isNaN(at) ? Math.max(clock, state.since) : at });
		}
	}

	/** The new events, oldest first (ties by id). */
	emitted(): Array<[string, { event: IDataObject; at: number }]> {
		return [...this.fresh.entries()].sort(([a, x], [b, y]) => x.at - y.at || a.localeCompare(b));
	}

	/** What the next poll starts from: the window moved on as far as this read vouches, and the ids still inside it. */
	stateAfter(emitted: Array<[string, { event: IDataObject; at: number }]>): PollState {
		const { state, readUpTo, serverNow } = this;
		// At the service's time T every event created before T - LATE_MS is visible, so a complete read covered it. The window never
		// passes T, nor, after a read cut short, the last time read (nor the window's start, out of order): ids dated later (a wrong
		// clock, or first seen now) stay remembered until the window passes their time, since the service lists them until then.
		const cutShortAt = this.inOrder ? readUpTo : state.since;
		const horizon = this.complete ? (Number.isNaN(serverNow) ? readUpTo : serverNow) : cutShortAt;
		const since = Math.max(state.since, horizon - LATE_MS);
		let remembered = [
			...[...this.seen].filter(([, at]) => at >= since),
			...emitted.map(([id, f]) => [id, f.at] as const),
		];
		let floor = since;
		if (remembered.length > MAX_SEEN) {
			// Over the cap the oldest ids go, and the window starts at the oldest id kept (no later than the horizon), so none is emitted twice.
			remembered.sort((a, b) => b[1] - a[1]);
			floor = Math.max(since, Math.min(remembered[MAX_SEEN - 1][1], horizon));
			remembered = remembered.filter(([, at]) => at >= floor);
		}
		// Ids stay own keys (fromEntries defines them).
		return { since: floor, seen: Object.fromEntries(remembered) };
	}
}

/** The service's clock (ms) from one small read of the event list (from n8n's now); NaN when it sends no readable `generated`. */
async function serviceNow(this: IPollFunctions, list: EventList, now: number): Promise<number> {
	const { path, notFound, scopes } = list;
	const { body } = await cloud4WiApiRequest.call(this, {
		method: 'GET',
		path,
		query: { dateStart: new Date(now).toISOString(), size: 1 },
		notFound,
		scopes,
	});
	return utcMs(body.generated);
}

/** Why a contact's profile is missing from its events. */
function lookupProblem(failure: NodeApiError): string {
	if (failure.httpCode === '404') return 'The contact no longer exists in Cloud4Wi';
	return `The contact profile could not be read: ${failure.message}`;
}

/**
 * Output items: the event as sent (or simplified), with the contact's profile when asked, fetched once per contact. A profile that
 * cannot be read leaves `contact` empty and says why in `contactError`: the event still goes out, once.
 */
async function shapeEvents(
	this: IPollFunctions,
	events: IDataObject[],
	options: IDataObject,
	organizationId: string,
): Promise<INodeExecutionData[]> {
	const contacts = new Map<string, IDataObject>();
	const problems = new Map<string, string>();
	if (options.includeContact) {
		const ids = [...new Set(events.map((e) => String(e.customerId ?? '')))];
		for (const id of ids) {
			const problem = pathIdProblem(id);
			if (problem) problems.set(id, `The contact profile could not be read: the event's contact ID ${problem}`);
		}
		// One lookup per distinct contact, all at once: the account's limiter decides how many are in flight.
		await Promise.all(
			ids
				.filter((id) => !problems.has(id))
				.map(async (id) => {
					try {
						const { body } = await cloud4WiApiRequest.call(this, {
							method: 'GET',
							path: apiPath`/v2/customers/${id as PathId}`,
							notFound: `contact "${id}" of organization "${organizationId}"`,
							scopes: 'organization_read, customer_read',
						});
						contacts.set(id, simplifyContact(contactProfileOf(body)));
					} catch (error) {
						// Thrown on, a lookup that keeps failing (deleted contact, 5xx, no answer in time) would fail every later poll the same way.
						problems.set(id, lookupProblem(error as NodeApiError)); // from the transport: already an n8n error
					}
				}),
		);
	}
	return events.map((event) => {
		const json = options.simplify ? simplifyEvent(event) : { ...event };
		if (options.includeContact) {
			const id = String(event.customerId ?? '');
			json.contact = contacts.get(id) ?? null;
			const problem = problems.get(id);
			if (problem) json.contactError = problem;
		}
		return { json };
	});
}
