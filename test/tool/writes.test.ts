/**
 * Writes from a model are safe: an update (PUT) may go again after a 5xx, since sending it twice changes nothing more;
 * a create (POST) is never sent twice, and the model is told it may have been applied.
 */
import { apiCalls, callTool, fromAI, LOCATION_REQUIRED, sandboxPerFile } from '../harness/cloud4wi';
import { atScale } from '../harness/engine';

const ctx = sandboxPerFile({ contacts: 30 });

test('a create answered 503: sent once, and the model is told it may have been applied', async () => {
	ctx.sb.addFault({ method: 'POST', path: '/locations', status: 503, body: { message: 'Upstream timed out' } });
	const answer = await atScale(1 / 20, () =>
		callTool(
			ctx,
			{ resource: 'location', operation: 'create', ...LOCATION_REQUIRED, name: fromAI('name') },
			{
				name: 'Rome Lobby',
			},
		),
	);
	expect(answer).toEqual([
		{
			error: 'Upstream timed out',
			description: 'The write may or may not have been applied: check in Cloud4Wi before running it again.',
			httpCode: '503',
		},
	]);
	expect(apiCalls(ctx.sb).filter((c) => c.startsWith('POST'))).toEqual([
		`POST /v1/organizations/${ctx.sb.organizationId}/locations`,
	]);
});

test('an opt-in update answered 503 goes again (PUT: the same choice twice changes nothing more), and the model gets the result', async () => {
	const target = ctx.sb.data.contacts[5]!;
	ctx.sb.addFault({ method: 'PUT', path: '/policies', status: 503 });
	const answer = (await atScale(1 / 20, () =>
		callTool(
			ctx,
			{
				resource: 'contact',
				operation: 'updateOptIns',
				contactId: fromAI('contactId'),
				optIns: { optIn: [{ policy: 'mktgCommunications', accepted: fromAI('accepted', 'boolean') }] },
			},
			{ contactId: target.cid, accepted: false },
		),
	)) as Array<{ contactId: string; allUpdated: boolean }>;
	expect(answer).toEqual([expect.objectContaining({ contactId: target.cid, allUpdated: true })]);
	const puts = ctx.sb.requests.filter((r) => r.method === 'PUT');
	expect(puts.map((r) => [r.path, r.status])).toEqual([
		[`/v1/customers/${target.cid}/policies`, 503],
		[`/v1/customers/${target.cid}/policies`, 200],
	]);
	expect(puts[1].body).toEqual(puts[0].body);
	expect(puts[1].body).toEqual({ policies: [{ policyKey: 'mktgCommunications', accepted: false }] });
});
