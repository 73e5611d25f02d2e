/**
 * One worker process of bench/queue.bench.ts (skipped unless it starts it): two executions of Update Opt-Ins at once
 * on one credential, each over half of its contacts, starting at QUEUE_START_AT. Writes its report to QUEUE_REPORT.
 * With QUEUE_SHARE, each execution's Max Concurrent Requests is that many (the bound's even split, known in advance).
 */
import { readFileSync, writeFileSync } from 'node:fs';

import { actionWorkflow, credentialFor } from '../../test/harness/cloud4wi';
import { buildWorkflow, runWorkflow } from '../../test/harness/engine';

const env = process.env;
const ready = env.QUEUE_URL !== undefined;
const share = env.QUEUE_SHARE ? { requestOptions: { maxConcurrentRequests: Number(env.QUEUE_SHARE) } } : {};

(ready ? test : test.skip)('a queue worker: two bulk executions at once on one credential', async () => {
	const store = credentialFor({ url: env.QUEUE_URL!, credentials: JSON.parse(env.QUEUE_CREDENTIALS!) });
	const ids = JSON.parse(readFileSync(env.QUEUE_IDS!, 'utf8')) as string[];
	const half = ids.length / 2;
	const execution = (part: string[]) =>
		runWorkflow(
			buildWorkflow(
				actionWorkflow(
					{
						resource: 'contact',
						operation: 'updateOptIns',
						contactId: '={{ $json.id }}',
						optIns: { optIn: [{ policy: 'mktgCommunications', accepted: '={{ $json.accepted }}' }] },
						...share,
					},
					part.map((id, i) => ({ id, accepted: i % 2 === 0 })),
				),
			),
			store,
		);
	await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(env.QUEUE_START_AT) - Date.now())));
	const results = await Promise.all([execution(ids.slice(0, half)), execution(ids.slice(half))]);
	const endedAt = Date.now();
	const failed = results.reduce(
		(sum, r) => sum + r.output('Cloud4Wi').filter((item) => item.json.error !== undefined).length + (r.error ? half : 0),
		0,
	);
	writeFileSync(env.QUEUE_REPORT!, JSON.stringify({ failed, endedAt }));
}, 600_000);
