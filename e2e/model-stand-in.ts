/**
 * A scripted stand-in for an OpenAI-compatible model, for n8n's OpenAI Chat Model node (chat completions; its
 * credential's Base URL points here). It answers POST .../chat/completions on a loopback port with the script's
 * next turn, chosen by how many tool answers the conversation already holds (so a retried request gets the same
 * turn), and records every request body it received: the tools offered and the tool answers in the messages.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** A request body of the chat completions API, read loosely. */
export interface ChatRequest {
	model?: string;
	stream?: boolean;
	messages: ChatMessage[];
	tools?: OfferedTool[];
}
export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}
export interface OfferedTool {
	type: string;
	function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** One turn of the model: a tool call, or its final answer (text). */
export type Turn = { tool: string; args: Record<string, unknown> } | { answer: string };
/** The script: turn `n` is given the request that holds `n` tool answers. */
export type Script = Array<(request: ChatRequest) => Turn>;

export interface ModelStandIn {
	/** The Base URL for the openAiApi credential. */
	url: string;
	/** Every request received, in order: its path and body. */
	requests: Array<{ path: string; body: ChatRequest }>;
	stop(): Promise<void>;
}

/** The text of a message's content (a string, or parts with text). */
export function contentText(message: ChatMessage): string {
	if (typeof message.content === 'string') return message.content;
	if (Array.isArray(message.content))
		return message.content.map((part) => (part as { text?: string }).text ?? '').join('');
	return '';
}

/** The tool answers a request holds, each with the name of the tool that gave it (from the assistant's call). */
export function toolAnswers(request: ChatRequest): Array<{ tool: string; args: unknown; answer: string }> {
	const calls = new Map<string, { name: string; arguments: string }>();
	for (const message of request.messages)
		for (const call of message.tool_calls ?? []) calls.set(call.id, call.function);
	return request.messages
		.filter((m) => m.role === 'tool')
		.map((m) => {
			const call = calls.get(m.tool_call_id ?? '');
			return { tool: call?.name ?? '?', args: call ? JSON.parse(call.arguments) : undefined, answer: contentText(m) };
		});
}

function completion(request: ChatRequest, turn: Turn, id: string) {
	const message =
		'answer' in turn
			? { role: 'assistant', content: turn.answer }
			: {
					role: 'assistant',
					content: null,
					tool_calls: [
						{ id: `call_${id}`, type: 'function', function: { name: turn.tool, arguments: JSON.stringify(turn.args) } },
					],
				};
	return {
		id: `chatcmpl-e2e-${id}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: request.model ?? 'e2e-scripted-model',
		choices: [{ index: 0, message, finish_reason: 'answer' in turn ? 'stop' : 'tool_calls' }],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	};
}

/** The same answer as server-sent chunks, for a request with `stream: true`. */
function chunks(answer: ReturnType<typeof completion>): string {
	const { message, finish_reason } = answer.choices[0];
	const base = { id: answer.id, object: 'chat.completion.chunk', created: answer.created, model: answer.model };
	const delta =
		'tool_calls' in message && message.tool_calls
			? { role: 'assistant', content: null, tool_calls: message.tool_calls.map((c, index) => ({ index, ...c })) }
			: { role: 'assistant', content: message.content };
	return [
		{ ...base, choices: [{ index: 0, delta, finish_reason: null }] },
		{ ...base, choices: [{ index: 0, delta: {}, finish_reason }], usage: answer.usage },
	]
		.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
		.concat('data: [DONE]\n\n')
		.join('');
}

export async function startModelStandIn(script: Script): Promise<ModelStandIn> {
	const requests: ModelStandIn['requests'] = [];
	const reply = (response: ServerResponse, status: number, body: unknown) => {
		response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
	};

	const server = createServer((request: IncomingMessage, response: ServerResponse) => {
		const parts: Buffer[] = [];
		request.on('data', (part: Buffer) => parts.push(part));
		request.on('end', () => {
			const path = (request.url ?? '').split('?')[0];
			if (request.method !== 'POST' || !path.endsWith('/chat/completions'))
				return reply(response, 404, { error: { message: `the stand-in serves only chat completions, not ${path}` } });
			let body: ChatRequest;
			try {
				body = JSON.parse(Buffer.concat(parts).toString('utf8')) as ChatRequest;
			} catch {
				return reply(response, 400, { error: { message: 'the body is not JSON' } });
			}
			requests.push({ path, body });
			const step = toolAnswers(body).length;
			if (step >= script.length)
				return reply(response, 500, { error: { message: `the script has no turn after ${step} tool answers` } });
			const answer = completion(body, script[step](body), String(requests.length));
			if (body.stream) response.writeHead(200, { 'content-type': 'text/event-stream' }).end(chunks(answer));
			else reply(response, 200, answer);
		});
	});
	await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		stop: () => new Promise<void>((done) => server.close(() => done())),
	};
}
