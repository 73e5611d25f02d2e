import type { IDataObject } from 'n8n-workflow';

import { triggerWorkflow } from '../harness/cloud4wi';
import { buildWorkflow, pollOnce } from '../harness/engine';
import { emittedIds, ORG, signupEvent, standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';
import { utcMs } from '../../nodes/Cloud4Wi/shared/events';

/** UTC wall time without zone or milliseconds, e.g. 2025-03-01T09:30:00. */
const zoneless = (ms: number) => new Date(ms).toISOString().slice(0, 19);

let si: StandIn;
afterEach(async () => {
	await si.close();
});

test('n8n running west of UTC: each new event is emitted once although the stand-in writes UTC times without "Z"', async () => {
	expect(new Date().getTimezoneOffset()).toBeGreaterThan(0); // west of UTC, as jest.config.js sets: else it proves nothing
	const stored: Array<{ at: number; record: IDataObject }> = [];
	si = await standIn((r) => {
		if (r.path !== `/v1/organizations/${ORG}/events`) return undefined;
		const from = r.query.dateStart ? Date.parse(r.query.dateStart) : -Infinity; // we send it with Z
		const page = stored.filter((e) => e.at >= from).map((e) => e.record);
		return { body: { status: 'ok', generated: zoneless(Date.now()), count: page.length, events: page } };
	});
	const add = (id: string) => {
		const at = Date.now();
		stored.push({ at, record: signupEvent(id, zoneless(at)) });
	};
	const workflow = buildWorkflow(triggerWorkflow({ events: [] }));

	await pollOnce(workflow, si.store, 'Trigger'); // activation: remembers "now"
	await new Promise((r) => setTimeout(r, 1100));
	add('e1l');
	const second = emittedIds((await pollOnce(workflow, si.store, 'Trigger')).emitted);
	await new Promise((r) => setTimeout(r, 1100));
	add('e2l');
	const third = emittedIds((await pollOnce(workflow, si.store, 'Trigger')).emitted);
	expect([...second, ...third]).toEqual(['e1l', 'e2l']);
	// The window never runs ahead of the stand-in's clock: every dateStart asked for is in the past.
	const sent = si.requests.filter((r) => r.path.endsWith('/events')).map((r) => Date.parse(r.query.dateStart));
	expect(sent.every((at) => at <= Date.now())).toBe(true);
});

/** Unit tests of the small pure helpers: input checks, date handling, path building, records, kinds. */
test('a time without a zone, written with T or a space, is UTC, not the zone n8n runs in', () => {
	expect(new Date().getTimezoneOffset()).toBeGreaterThan(0); // west of UTC, as jest.config.js sets: else it proves nothing
	const at = Date.UTC(2025, 2, 1, 9, 30);
	expect(utcMs('2025-03-01T09:30:00')).toBe(at);
	expect(utcMs('2025-03-01 09:30:00')).toBe(at);
	expect(utcMs('2025-03-01T09:30:00Z')).toBe(at);
	expect(utcMs('2025-03-01T10:30:00+01:00')).toBe(at);
});
