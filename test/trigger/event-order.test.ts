import type { IDataObject } from 'n8n-workflow';

import { triggerWorkflow } from '../harness/cloud4wi';
import { buildWorkflow, pollOnce } from '../harness/engine';
import { emittedIds, ORG, signupEvent, standIn } from '../harness/stand-in';
import type { StandIn } from '../harness/stand-in';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let si: StandIn;
const hung: Array<() => void> = [];
afterEach(async () => {
	for (const release of hung.splice(0)) release();
	await si.close();
});

interface Stored {
	id: string;
	at: number;
	/** Local (business) time, as the location's clock shows it. */
	local: number;
	record: IDataObject;
}

/** 25,000 signups over the last three hours at two locations, London (UTC+0) and Milan (UTC+1), alternating. */
function history(): Stored[] {
	const now = Date.now();
	return Array.from({ length: 25_000 }, (_, i) => {
		const at = now - 3 * HOUR + i * 400;
		const local = at + (i % 2) * HOUR;
		const record = signupEvent(`e${i}l`, new Date(at).toISOString());
		(record.when as IDataObject).createdAtLocal = new Date(local).toISOString().slice(0, 19);
		return { id: `e${i}l`, at, local, record };
	});
}

/** A scrolling event list in `order` (whatever sortBy asks), from dateStart on; `hangScroll` keeps scroll pages from answering. */
async function serviceListing(stored: Stored[], order: (a: Stored, b: Stored) => number, hangScroll: () => boolean) {
	const scrolls = new Map<string, IDataObject[]>();
	return await standIn(async (r) => {
		if (r.path !== `/v1/organizations/${ORG}/events`) return undefined;
		const size = Number(r.query.size);
		let rest: IDataObject[];
		if (r.query.scrollId) {
			if (hangScroll()) await new Promise<void>((release) => hung.push(release));
			rest = scrolls.get(r.query.scrollId) ?? [];
		} else {
			const from = Date.parse(r.query.dateStart);
			rest = stored
				.filter((e) => e.at >= from)
				.sort(order)
				.map((e) => e.record);
		}
		const page = rest.slice(0, size);
		const scrollId = rest.length > size ? `s${scrolls.size + 1}` : undefined;
		if (scrollId) scrolls.set(scrollId, rest.slice(size));
		return { body: { status: 'ok', generated: new Date().toISOString(), count: page.length, scrollId, events: page } };
	});
}

test.each([
	['newest first', (a: Stored, b: Stored) => b.at - a.at],
	['by business time', (a: Stored, b: Stored) => a.local - b.local],
])(
	'a service listing %s, a poll cut short after the first page: the next polls deliver every event once',
	async (_, order) => {
		const stored = history();
		let hang = true;
		si = await serviceListing(stored, order, () => hang);
		const startDate = new Date(Date.now() - 4 * HOUR).toISOString();
		const workflow = buildWorkflow(triggerWorkflow({ events: [], options: { startFrom: 'date', startDate } }));
		const counts = new Map<string, number>();
		const poll = async (budget?: number) => {
			for (const id of emittedIds((await pollOnce(workflow, si.store, 'Trigger', 'trigger', budget)).emitted)) {
				counts.set(id, (counts.get(id) ?? 0) + 1);
			}
		};

		await poll(3_000); // the first page, then the scroll hangs past the poll's budget: handed over
		expect(counts.size).toBe(10_000);
		hang = false;
		await poll();
		await poll();
		expect(stored.filter((e) => counts.get(e.id) !== 1).map((e) => e.id)).toEqual([]);
		expect(counts.size).toBe(stored.length);
	},
	60_000,
);
