/** Shortcuts for runs of many items against one sandbox. */
import type { TestContext } from './cloud4wi';
import { runAction } from './cloud4wi';

/** A credential that already holds a valid token, as after an earlier execution. */
export async function warm(ctx: TestContext): Promise<void> {
	await runAction(ctx, { resource: 'segment', operation: 'getAll', returnAll: true });
	ctx.sb.clearRequests();
}

export const getContact = { resource: 'contact', operation: 'get', contactId: '={{ $json.id }}' };

/** Contact > Get for each id, one item each. */
export const getEach = (ctx: TestContext, ids: string[], extra = {}) =>
	runAction(
		ctx,
		getContact,
		ids.map((id) => ({ id })),
		extra,
	);

/** Contact > Update Opt-Ins of the item's `id`, accepting as the item's `accepted` says. */
export const optIn = {
	resource: 'contact',
	operation: 'updateOptIns',
	contactId: '={{ $json.id }}',
	optIns: { optIn: [{ policy: 'mktgCommunications', accepted: '={{ $json.accepted }}' }] },
};

/** The logins the sandbox received. */
export const logins = (ctx: TestContext) => ctx.sb.requests.filter((r) => r.path === '/v1/sts/login/services');
