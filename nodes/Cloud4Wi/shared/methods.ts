import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { fetchRecords } from './paginate';
import type { PathId } from './path';
import { pathIdProblem } from './path';
import { apiPath, credentialsOf } from './transport';

/** The organization typed in the node, else the credential's default (dropdowns load before any item exists). */
async function organizationOf(ctx: ILoadOptionsFunctions): Promise<PathId | undefined> {
	let typed: unknown;
	try {
		typed = ctx.getCurrentNodeParameter('organizationId');
	} catch {
		typed = undefined; // the node has no such field (the trigger's location list, say)
	}
	const fromNode = typeof typed === 'string' && typed.trim() && !typed.startsWith('=') ? typed.trim() : '';
	const org = fromNode || String((await credentialsOf(ctx)).organizationId ?? '').trim();
	if (!org) return undefined;
	const problem = pathIdProblem(org);
	if (problem) throw new NodeOperationError(ctx.getNode(), `Organization ID: ${problem}`);
	return org as PathId;
}

async function listOf(ctx: ILoadOptionsFunctions, kind: 'locations' | 'segments' | 'hotspots'): Promise<IDataObject[]> {
	const org = await organizationOf(ctx);
	if (!org) return [];
	const requests = {
		locations: { path: apiPath`/v1/organizations/${org}/locations`, paging: { style: 'none' } as const },
		segments: { path: apiPath`/v2/segments/organizations/${org}`, paging: { style: 'none' } as const },
		hotspots: { path: apiPath`/v3/hotspots/organizations/${org}`, paging: { style: 'offset' } as const },
	};
	const { path, paging } = requests[kind];
	return await fetchRecords.call(ctx, { method: 'GET', path }, kind, paging);
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
