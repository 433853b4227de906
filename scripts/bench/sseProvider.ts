import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The next streamed answer: text, or tool calls. */
export type Answer = { text: string } | { calls: { name: string; args: object }[] };

/** The chat-completions request a model server receives, as far as the benches read it. */
export interface ChatRequest {
  messages?: { role: string }[];
}

/**
 * A minimal OpenAI chat-completions server for the benches (the tests' own
 * is test/helpers/providerServer.ts, which needs vitest): each POST answers
 * with `next(request)` as SSE over real HTTP, the first chunk at once.
 */
export async function sseServer(next: (request: ChatRequest) => Answer): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      let request: ChatRequest = {};
      try {
        request = JSON.parse(Buffer.concat(body).toString('utf8')) as ChatRequest;
      } catch {
        // Not JSON: answered as any other request.
      }
      const answer = next(request);
      const chunk = (delta: object, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if ('text' in answer) {
        res.write(chunk({ role: 'assistant', content: answer.text }));
        res.write(chunk({}, 'stop'));
      } else {
        answer.calls.forEach((call, index) => res.write(chunk({ tool_calls: [{ index, id: `c${index}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] })));
        res.write(chunk({}, 'tool_calls'));
      }
      res.write(
        `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 0, model: 'bench', choices: [], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
