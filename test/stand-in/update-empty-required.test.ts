/**
 * Spec, POST /v1/organizations/{cid}/locations: "name | string | yes", "address, city, state, zip | string | yes";
 * POST /v3/hotspots: "name | string | required". An Update may leave these out, but a location or hotspot has them:
 * an Update Field added and left empty (or mapped from an empty value) must fail the item naming the field, not
 * send `""` and blank the record's name or address. The node used to send `name: ""` (location and hotspot) and
 * `address: ""`, `city: ""`... (location).
 */
import { NodeOperationError } from 'n8n-workflow';
import type { INodeParameters } from 'n8n-workflow';

import { runAction } from '../harness/cloud4wi';
import { lastThrownError } from '../harness/engine';
import { standIn } from '../harness/stand-in';
import type { InRequest, StandIn } from '../harness/stand-in';

let si: StandIn;
/** Answers every request but the login (the stand-in's own), hotspot reads with their location. */
const answerWrites = (r: InRequest) =>
	r.path.startsWith('/v1/sts/')
		? undefined
		: { body: { generated: 'g', status: 'ok', hotspot: { id: 'h1', venueId: 'l1' } } };
afterEach(async () => await si.close());

const location = (field: string, value: string): INodeParameters => ({
	resource: 'location',
	operation: 'update',
	locationId: 'l1',
	updateFields: { [field]: value },
});
const hotspot = (field: string, value: string): INodeParameters => ({
	resource: 'hotspot',
	operation: 'update',
	hotspotId: 'h1',
	locationId: { __rl: true, mode: 'id', value: 'l1' },
	updateFields: { [field]: value },
});

const cases: Array<[string, INodeParameters, string]> = [
	['location name', location('name', ''), 'Update Fields > Name'],
	['location name, spaces only', location('name', '  '), 'Update Fields > Name'],
	['location address', location('address', ''), 'Update Fields > Address'],
	['location city', location('city', ''), 'Update Fields > City'],
	['location state', location('state', ''), 'Update Fields > State'],
	['location ZIP code', location('zip', ''), 'Update Fields > ZIP Code'],
	['hotspot name', hotspot('name', ''), 'Update Fields > Name'],
	['hotspot city', hotspot('city', ''), 'Update Fields > City'],
];

test.each(cases)('Update with an empty %s fails the item naming it, with nothing sent', async (_, params, field) => {
	si = await standIn(answerWrites);
	const result = await runAction(si, params);
	expect(result.error).toBeDefined();
	expect(lastThrownError()).toBeInstanceOf(NodeOperationError);
	expect((lastThrownError() as Error).message).toBe(`${field}: is required`);
	expect(si.requests.filter((r) => r.method === 'PUT')).toEqual([]);
});

test('an Update Field that may be cleared still goes as empty: Description', async () => {
	si = await standIn(answerWrites);
	const result = await runAction(si, location('description', ''));
	expect(result.error).toBeUndefined();
	expect(si.requests.find((r) => r.method === 'PUT')?.body).toEqual({ description: '' });
});
