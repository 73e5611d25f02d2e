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
		const options = { ...(this.getNodeParameter('options', {}) as IDataObject) };
		// On/off options from an expression may be text: "false" must not read as on.
		for (const [name, label] of [
			['includeContact', 'Include Contact Profile'],
			['simplify', 'Simplify'],
		] as const) {
			const value = onOffOf(options[name] ?? false);
			if (value === undefined) {
				throw new NodeOperationError(this.getNode(), `Options > ${label}: ${notOnOffProblem(options[name])}`);
			}
			options[name] = value;
		}
		// From a dropdown a list; from an expression possibly a comma-separated string.
		const { entries: kinds, problem: kindProblem } = commaList(this.getNodeParameter('events', []));
		if (kindProblem) throw new NodeOperationError(this.getNode(), `Events: ${kindProblem}`);
		const { entries: locationIds, problem: locationProblem } = commaList(options.locationIds);
		for (const problem of [locationProblem, ...locationIds.map(pathIdProblem)]) {
			if (problem) throw new NodeOperationError(this.getNode(), `Options > Location Names or IDs: ${problem}`);
		}
		const locations = new Set(locationIds);
		const filter = kindFilter(kinds);
		// An event in the schema form has no `where`: with locations chosen it is left out, as nothing says it happened at one of them.
		const wanted = (e: IDataObject) =>
			filter.keep(e) &&
			(locations.size === 0 || locations.has(String(((e.where ?? {}) as IDataObject).locationId ?? '')));

		const budget = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : timing.pollBudgetMs;
		await startRun(this, { deadline: startedAt + budget * REQUEST_SHARE });
		const org = organizationIdOf(this.getNodeParameter('organizationId', ''), await credentialsOf(this));
		const organizationId = org.id;
		const problem = pathIdProblem(organizationId);
		if (problem) {
			throw new NodeOperationError(this.getNode(), `${org.label}: ${problem}`, {
				description: 'Enter the organization ID here or set a default organization ID in the credential.',
			});
		}
		const path = apiPath`/v1/organizations/${organizationId as PathId}/events`;
		const scopes = 'organization_read, events_read';

		if (this.getMode() === 'manual') {
			// Fetch Test Event: the most recent matching event, without touching what the active trigger remembers.
			const { body } = await cloud4WiApiRequest.call(this, {
				method: 'GET',
				path,
				query: { events: filter.query, sortBy: 'utcTime', sortReverse: true, size: SAMPLE_SIZE },
				notFound: `organization "${organizationId}"`,
				scopes,
			});
			const latest = ((body.events ?? []) as IDataObject[]).find(wanted);
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
			return [await shapeEvents.call(this, [latest], options, organizationId)];
		}

		const staticData = this.getWorkflowStaticData('node');
		let state = staticData.state as PollState | undefined;
		if (!state) {
			if (options.startFrom !== 'date') {
				// First activation from now: remember where to start, emit nothing. Events are dated by the service's clock, so
				// "now" is its clock when it is behind n8n's (else every event created after activation would be dated before it).
				const clock = await serviceNow.call(this, path, scopes, organizationId, startedAt);
				staticData.state = { since: clock < startedAt ? clock : startedAt, seen: {} } satisfies PollState;
				return null;
			}
			const since = toIsoInstant(options.startDate, this.getTimezone());
			if (!since) {
				throw new NodeOperationError(this.getNode(), `Options > Start Date: ${notDateTimeProblem(options.startDate)}`, {
					description: 'Use a form like 2025-03-01T09:30:00Z.',
				});
			}
			state = { since: Date.parse(since), seen: {} };
		}

		const readUntil = startedAt + budget * BUDGET_SHARE;
		const seen = seenIn(state);
		const fresh = new Map<string, { event: IDataObject; at: number }>();
		/** Latest creation time read that a clock vouches for: everything not read yet was created no earlier, if the list is in creation order. */
		let readUpTo = state.since;
		/** Whether the list came in creation order, as asked (`sortBy`): a service listing newest first, say, vouches for nothing unread. */
		let inOrder = true;
		let lastListed = Number.NEGATIVE_INFINITY;
		let serverNow = Number.NaN;
		let complete = true;
		let pagesRead = 0;
		const pages = pagesOf.call(
			this,
			{
				method: 'GET',
				path,
				query: {
					dateStart: new Date(state.since).toISOString(),
					events: filter.query,
					sortBy: 'utcTime',
					sortReverse: false,
				},
				notFound: `organization "${organizationId}"`,
				scopes,
			},
			'events',
			{ style: 'scroll', idParam: 'scrollId', idField: 'scrollId', open: { enableScroll: true } },
			PAGE_SIZE,
		);
		try {
			for await (const { records, body } of pages) {
				pagesRead++;
				if (Number.isNaN(serverNow)) serverNow = utcMs(body.generated);
				// Event times past the service's clock (`generated`; without it, n8n's) are wrong and say nothing about how far the read got.
				const clock = Number.isNaN(serverNow) ? Date.now() : serverNow;
				for (const event of records) {
					const at = createdAtOf(event);
					if (at < lastListed) inOrder = false;
					else if (at > lastListed) lastListed = at; // NaN (no time) is neither
					const id = eventId(event);
					if (!id) continue;
					if (at < state.since) continue; // NaN (no time) is never below: the service listed it in the window
					const notBefore = createdNotBefore(event);
					if (notBefore <= clock) readUpTo = Math.max(readUpTo, notBefore);
					// Without a time, an event counts from when it was first listed (it was created by then), never before the window.
					if (!seen.has(id) && wanted(event))
						fresh.set(id, { event, at: Number.isNaN(at) ? Math.max(clock, state.since) : at });
				}
				if (Date.now() > readUntil) {
					// Out of time: hand over what was read; the next poll resumes from the last time read (`readUpTo`) if in order.
					complete = false;
					break;
				}
			}
		} catch (error) {
			// A page that hangs past the poll's time, or a repeated page after new events: hand over what was read; the next poll resumes there.
			const failure = error as NodeApiError; // from the transport or the paging: already an n8n error
			const handOver = pagesRead > 0 && (isTimeout(failure) || (isRepeatedPage(failure) && fresh.size > 0));
			if (!handOver) throw failure;
			complete = false;
		}

		const emitted = [...fresh.entries()].sort(([a, x], [b, y]) => x.at - y.at || a.localeCompare(b));
		const items = emitted.length
			? await shapeEvents.call(
					this,
					emitted.map(([, f]) => f.event),
					options,
					organizationId,
				)
			: [];

		// At the service's time T every event created before T - LATE_MS is visible, so a complete read covered it. The window never
		// passes T, nor, after a read cut short, the last time read (nor the window's start, out of order): ids dated later (a wrong
		// clock, or first seen now) stay remembered until the window passes their time, since the service lists them until then.
		const cutShortAt = inOrder ? readUpTo : state.since;
		const horizon = complete ? (Number.isNaN(serverNow) ? readUpTo : serverNow) : cutShortAt;
		const since = Math.max(state.since, horizon - LATE_MS);
		let remembered = [...[...seen].filter(([, at]) => at >= since), ...emitted.map(([id, f]) => [id, f.at] as const)];
		let floor = since;
		if (remembered.length > MAX_SEEN) {
			// Over the cap the oldest ids go, and the window starts at the oldest id kept (no later than the horizon), so none is emitted twice.
			remembered.sort((a, b) => b[1] - a[1]);
			floor = Math.max(since, Math.min(remembered[MAX_SEEN - 1][1], horizon));
			remembered = remembered.filter(([, at]) => at >= floor);
		}
		// Written only now, after every request succeeded: a failed poll leaves the state as it was. Ids stay own keys (fromEntries defines them).
		staticData.state = { since: floor, seen: Object.fromEntries(remembered) } satisfies PollState;
		return items.length ? [items] : null;
	}
}

/** The service's clock (ms) from one small read of the event list (from n8n's now); NaN when it sends no readable `generated`. */
async function serviceNow(
	this: IPollFunctions,
	path: string,
	scopes: string,
	organizationId: string,
	now: number,
): Promise<number> {
	const { body } = await cloud4WiApiRequest.call(this, {
		method: 'GET',
		path,
		query: { dateStart: new Date(now).toISOString(), size: 1 },
		notFound: `organization "${organizationId}"`,
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
