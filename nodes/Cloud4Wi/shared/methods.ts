import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { organizationIdOf } from './formats';
import { fetchRecords } from './paginate';
import type { PathId } from './path';
import { pathIdProblem } from './path';
import { timing } from './timing';
import { credentialsOf, startRun } from './runs';
import { apiPath, isTimeout } from './transport';

/** Most records a dropdown loads: more options than anyone scrolls through (10 requests of 1,000 hotspots). */
const MAX_DROPDOWN_RECORDS = 10_000;

const NOUNS = { locations: 'location', segments: 'segment', hotspots: 'hotspot' } as const;

/** The organization typed in the node, else the credential's default (dropdowns load before any item exists). */
async function organizationOf(ctx: ILoadOptionsFunctions): Promise<PathId | undefined> {
	let typed: unknown;
	try {
		typed = ctx.getCurrentNodeParameter('organizationId');
	} catch {
		typed = undefined; // the node has no such field (the trigger's location list, say)
	}
	// An expression cannot be resolved here (no item yet): the credential's default stands in.
	const fromNode = typeof typed === 'string' && !typed.startsWith('=') ? typed : '';
	const org = organizationIdOf(fromNode, await credentialsOf(ctx));
	if (!org.id) return undefined;
	const problem = pathIdProblem(org.id);
	if (problem) throw new NodeOperationError(ctx.getNode(), `${org.label}: ${problem}`);
	return org.id as PathId;
}

async function listOf(ctx: ILoadOptionsFunctions, kind: 'locations' | 'segments' | 'hotspots'): Promise<IDataObject[]> {
	void startRun(ctx, { deadline: Date.now() + timing.dropdownMs }); // before the credential is first read, which starts a run
	const org = await organizationOf(ctx);
	if (!org) return [];
	const requests = {
		locations: { path: apiPath`/v1/organizations/${org}/locations`, paging: { style: 'none' } as const },
		segments: { path: apiPath`/v2/segments/organizations/${org}`, paging: { style: 'none' } as const },
		hotspots: { path: apiPath`/v3/hotspots/organizations/${org}`, paging: { style: 'offset' } as const },
	};
	const { path, paging } = requests[kind];
	const noun = NOUNS[kind];
	const instead = `Type the ${noun} ID instead: choose ID in place of From List, or, where there is no such choice, switch the field to Expression.`;
	let records: IDataObject[];
	try {
		records = await fetchRecords.call(ctx, { method: 'GET', path }, kind, paging, MAX_DROPDOWN_RECORDS + 1);
	} catch (error) {
		const failure = error as NodeApiError; // from the transport or the paging: already an n8n error
		if (!isTimeout(failure)) throw failure;
		const message = `The ${noun} list did not load within ${timing.dropdownMs / 1000} s: type the ${noun} ID instead`;
		throw new NodeApiError(
			ctx.getNode(),
			{ message },
			{
				message,
				description: `Cloud4Wi did not send the list in time. ${instead} Or try again later.`,
			},
		);
	}
	if (records.length > MAX_DROPDOWN_RECORDS) {
		const max = MAX_DROPDOWN_RECORDS.toLocaleString('en-US');
		throw new NodeOperationError(
			ctx.getNode(),
			`More than ${max} ${kind}, too many to list: type the ${noun} ID instead`,
			{
				description: `The list stops at ${max} ${kind}, more than anyone can pick from. ${instead}`,
			},
		);
	}
	return records;
}

function toOptions(records: IDataObject[]): INodePropertyOptions[] {
	return records
		.map((r) => ({ name: String(r.name ?? r.id), value: String(r.id), description: String(r.id) }))
		.sort((a, b) => a.name.localeCompare(b.name));
}

function toSearchResult(records: IDataObject[], filter?: string): INodeListSearchResult {
	const needle = filter?.toLowerCase() ?? '';
	const results = toOptions(records)
		.filter((o) => !needle || o.name.toLowerCase().includes(needle) || String(o.value).includes(needle))
		.map(({ name, value }) => ({ name, value }));
	return { results };
}

export const loadOptions = {
	async getLocations(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return toOptions(await listOf(this, 'locations'));
	},
	async getSegments(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return toOptions(await listOf(this, 'segments'));
	},
	async getHotspots(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return toOptions(await listOf(this, 'hotspots'));
	},
};

export const listSearch = {
	async searchLocations(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		return toSearchResult(await listOf(this, 'locations'), filter);
	},
	async searchHotspots(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
		return toSearchResult(await listOf(this, 'hotspots'), filter);
	},
};
