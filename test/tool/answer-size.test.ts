/**
 * Answers sized for a model's context: as a tool, Get Many gives a few simplified records and says whether more
 * match; any answer over the tool's Max Answer Length keeps the records that fit and says so. Each is a field of
 * the tool the user can change. Against the sandbox: the requests sent and the answer the model gets.
 */
import { apiCalls, callTool, fromAI, sandboxPerFile } from '../harness/cloud4wi';

interface ListAnswer {
	records: Array<Record<string, unknown>>;
	hasMore: boolean;
	note?: string;
}

const ctx = sandboxPerFile({ contacts: 1000 });

const contacts = { resource: 'contact', operation: 'getAll' };
const listQuery = () => ctx.sb.requests.filter((r) => !r.path.startsWith('/v1/sts/login')).map((r) => r.query);

test('Get Many by default: 10 simplified contacts, one more read to tell that more match, and a note saying so', async () => {
	const answer = (await callTool(ctx, contacts)) as ListAnswer[];
	expect(answer).toHaveLength(1);
	const [{ records, hasMore, note }] = answer;
	expect(records.map((c) => c.id)).toEqual([...ctx.sb.data.contacts].slice(0, 10).map((c) => c.cid));
	expect(Object.keys(records[0])).toContain('marketingOptIn'); // simplified: opt-ins as true/false
	expect(records[0]).not.toHaveProperty('policies');
	expect(hasMore).toBe(true);
	expect(note).toBe('Only the first 10 records are here: more match. Narrow the filters to get the ones you need.');
	expect(apiCalls(ctx.sb)).toEqual([`GET /v2/customers/organizations/${ctx.sb.organizationId}`]);
	expect(listQuery()[0].size).toBe('11');
	// The default answer against 1,000 contacts, well within the default Max Answer Length.
	expect(JSON.stringify(answer).length).toBeLessThan(20_000);
});

test('a Get Many that finds all there is: hasMore false and no note', async () => {
	const target = ctx.sb.data.contacts.find((c) => c.email !== null)!;
	const answer = (await callTool(
		ctx,
		{ ...contacts, filters: { email: fromAI('email') } },
		{ email: target.email },
	)) as ListAnswer[];
	expect(answer).toEqual([
		{ records: [expect.objectContaining({ id: target.cid, email: target.email })], hasMore: false },
	]);
	expect(listQuery()[0].email).toBe(target.email);
});

test("the tool's Limit and Simplify, changed by the user: that many full records", async () => {
	const [{ records, hasMore }] = (await callTool(ctx, { ...contacts, limit: 3, simplify: false })) as ListAnswer[];
	expect(records).toEqual([...ctx.sb.data.contacts].slice(0, 3));
	expect(hasMore).toBe(true);
	expect(listQuery()[0].size).toBe('4');
});

test('Return All off as mapped text ("false"): the Limit holds, and hasMore is told', async () => {
	const [{ records, hasMore }] = (await callTool(ctx, { ...contacts, returnAll: '={{ "false" }}' })) as ListAnswer[];
	expect(records).toHaveLength(10);
	expect(hasMore).toBe(true);
});

test('Return All in the tool: every record, hasMore false (segments: a short list)', async () => {
	const answer = (await callTool(ctx, { resource: 'segment', operation: 'getAll', returnAll: true })) as ListAnswer[];
	expect(answer).toEqual([{ records: ctx.sb.data.segments, hasMore: false }]);
});

test('an answer over Max Answer Length keeps the records that fit, says so, and stays within it', async () => {
	const answer = (await callTool(ctx, { ...contacts, limit: 50, maxAnswerLength: 3000 })) as ListAnswer[];
	const [{ records, hasMore, note }] = answer;
	expect(records.length).toBeGreaterThan(0);
	expect(records.length).toBeLessThan(50);
	expect(records.map((c) => c.id)).toEqual([...ctx.sb.data.contacts].slice(0, records.length).map((c) => c.cid));
	expect(hasMore).toBe(true);
	expect(note).toBe(
		`Cut to the first ${records.length} of 50 records to stay within 3000 characters. Narrow the filters to get the ones you need.`,
	);
	expect(JSON.stringify(answer).length).toBeLessThanOrEqual(3000);
});

test('a single record over Max Answer Length is left out, and the answer says so', async () => {
	const target = ctx.sb.data.contacts[0]!;
	const answer = await callTool(
		ctx,
		{ resource: 'contact', operation: 'get', contactId: fromAI('contactId'), maxAnswerLength: 1000 },
		{ contactId: target.cid },
	);
	expect(JSON.stringify(target).length).toBeGreaterThan(1000);
	expect(answer).toEqual([
		{
			records: [],
			hasMore: true,
			note: 'Cut to the first 0 of 1 records to stay within 1000 characters. Narrow the filters to get the ones you need.',
		},
	]);
});

test('a Max Answer Length out of range is refused by name, and nothing is sent', async () => {
	const answer = await callTool(ctx, { ...contacts, maxAnswerLength: 10 });
	expect(answer).toEqual([{ error: 'Max Answer Length: must be a whole number of characters from 1000, got "10"' }]);
	expect(ctx.sb.requests).toEqual([]);
});
