import type { IDataObject } from 'n8n-workflow';

import { triggerWorkflow } from '../harness/cloud4wi';
import { buildWorkflow, pollOnce } from '../harness/engine';
import { emittedIds, ORG, signupEvent, standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

let si: StandIn;
afterEach(async () => {
	await si.close();
});

test('a service that ignores dateStart and lists its whole history: only events after activation are emitted', async () => {
	const stored: IDataObject[] = [];
	si = await standIn((r) => {
		if (r.path !== `/v1/organizations/${ORG}/events`) return undefined;
		const events = [...stored].reverse(); // newest first, whatever dateStart asked for
		return { body: { status: 'ok', generated: new Date().toISOString(), count: events.length, events } };
	});
	const add = (id: string, at: number) => stored.push(signupEvent(id, new Date(at).toISOString()));
	add('e-last-year', Date.now() - 365 * 86_400_000);
	add('e-a-minute-ago', Date.now() - 60_000);
	const workflow = buildWorkflow(triggerWorkflow({ events: [] }));
	const poll = async () => emittedIds((await pollOnce(workflow, si.store, 'Trigger')).emitted);

	expect(await poll()).toEqual([]); // activation
	add('e-new', Date.now());
	expect(await poll()).toEqual(['e-new']);
	expect(await poll()).toEqual([]);
	expect(si.requests.filter((r) => r.path.endsWith('/events')).every((r) => r.query.dateStart)).toBe(true);
});
