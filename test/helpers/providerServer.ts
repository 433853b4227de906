import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicFrames, anthropicErrorBody } from './providerWire/anthropicWire.js';
import { chatFrames, openaiErrorBody } from './providerWire/openaiChatWire.js';
import { responsesFrames } from './providerWire/responsesWire.js';
import { eventPieces, readFixture } from './providerWire/fixtures.js';
import { gateAt, type ScriptedReply, type SseFrame } from './providerWire/types.js';
import { afterEachTest } from './afterEachTest.js';

export type { ScriptedReply, ScriptedToolCall, SseFrame } from './providerWire/types.js';

/**
 * A local model provider for tests: a real HTTP server on 127.0.0.1 that
 * speaks the real wire formats with SSE streaming, so the real `openai` and
 * `@anthropic-ai/sdk` clients (and the CLI, and `chatos serve`) talk to it
 * as they would to a provider. Nothing is mocked.
 *
 * - `POST /v1/chat/completions` (OpenAI chat completions), `POST
 *   /v1/responses` (OpenAI Responses), `POST /v1/messages` (Anthropic
 *   Messages) each answer with the next scripted response of the queue,
 *   rendered in that API's format; an empty queue answers 500 saying so.
 * - `GET /v1/models` (Anthropic's path too), Ollama's `GET /api/tags` and
 *   `POST /v1/embeddings` (also `/embeddings`) answer by themselves: the
 *   configured model ids, deterministic vectors. `oldOllama`: /v1/models is
 *   missing, as on Ollama before it had one.
 * - Every request is recorded: method, path, headers, JSON body.
 */

export type Scripted =
  /** A streamed answer: text and/or tool calls, then usage and the finish. */
  | ({ kind: 'reply' } & ScriptedReply)
  /** An HTTP error in the API's error format, e.g. 429 with `{ 'retry-after': '2' }`. */
  | { kind: 'error'; status: number; message: string; type?: string; param?: string; headers?: Record<string, string> }
  /** Accepts the request and never answers (until the client goes away). */
  | { kind: 'hang' }
  /**
   * SSE frames written as given, in the request's API format (see
   * providerWire/), each taken from the iterable only once the client has
   * read what came before: a generator can stream more than memory holds,
   * and stops being read when the client goes away.
   */
  | { kind: 'frames'; frames: Iterable<SseFrame> }
  /**
   * A recorded response (test/fixtures/providerStreams/NAME.http) replayed
   * byte for byte: its status, headers and body, the body one server-sent
   * event at a time. `gate`: after `after` events, wait until `open`
   * resolves (a test looks at the page meanwhile); `delayMs` before each.
   */
  | { kind: 'fixture'; name: string; gate?: { after: number; open: Promise<void> }; delayMs?: number }
  /** A body made by the test (e.g. ten megabytes of reasoning), sent piece by piece as given. */
  | { kind: 'raw'; status?: number; headers?: Record<string, string>; pieces: string[] };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** Resolves when the response's connection closed: at its end, or when the client went away mid-stream. */
  closed: Promise<void>;
}

export type WireFormat = 'openai' | 'openai-responses' | 'anthropic';

const ROUTES: readonly [RegExp, WireFormat][] = [
  [/^(\/v1)?\/chat\/completions$/, 'openai'],
  [/^(\/v1)?\/responses$/, 'openai-responses'],
  [/^(\/v1)?\/messages$/, 'anthropic'],
];

export interface ProviderServer {
  /** `http://127.0.0.1:PORT` (Anthropic's base URL; the SDK adds `/v1/messages`). */
  url: string;
  /** `http://127.0.0.1:PORT/v1` (OpenAI's base URL). */
  openaiUrl: string;
  readonly requests: RecordedRequest[];
  /** Adds responses to the queue, answered in order. */
  enqueue(...responses: Scripted[]): void;
  /** Resolves once `count` requests arrived (generous deadline; fails with what did arrive). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /**
   * Holds `/embeddings`: the next `after` requests are answered, later ones
   * wait until the returned release is called (a test looks at a long add
   * in the middle, without timing it).
   */
  holdEmbeddings(after: number): () => void;
  close(): Promise<void>;
}

const running: ProviderServer[] = [];

afterEachTest(async () => {
  for (const server of running.splice(0)) await server.close();
});

/**
 * Starts a provider server on a free port of 127.0.0.1; closed after the
 * test, or (`shared`, for one started in beforeAll) by the caller.
 */
export async function startProviderServer(
  options: { models?: string[]; shared?: boolean; oldOllama?: boolean; /** GET /models answers this recorded response (test/fixtures/providerStreams). */ modelList?: string } = {},
): Promise<ProviderServer> {
  const queue: Scripted[] = [];
  const requests: RecordedRequest[] = [];
  const waiters = new Set<() => void>();
  const models = options.models ?? ['test-model'];
  let embeddingsHold: { after: number; open: Promise<void> } | undefined;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const path = (req.url ?? '/').split('?')[0]!;
      const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
      requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body, closed });
      for (const wake of [...waiters]) wake();
      void answer(req, res, path, body);
    });
  });

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, path: string, body: any): Promise<void> {
    // An Ollama before /v1/models had only its own tags list.
    if (req.method === 'GET' && /^(\/v1)?\/models$/.test(path) && options.oldOllama) return json(res, 404, { error: '404 page not found' });
    if (req.method === 'GET' && /^(\/v1)?\/models$/.test(path) && options.modelList) return replay(res, { kind: 'fixture', name: options.modelList });
    if (req.method === 'GET' && /^(\/v1)?\/models$/.test(path))
      return json(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'provider-server' })), has_more: false });
    if (req.method === 'GET' && path === '/api/tags')
      return json(res, 200, { models: models.map((name) => ({ name, model: name, modified_at: '2025-01-01T00:00:00Z', size: 1, digest: 'sha256:0', details: { format: 'gguf', family: 'llama' } })) });
    if (req.method === 'POST' && /^(\/v1)?\/embeddings$/.test(path)) {
      const hold = embeddingsHold;
      if (hold && hold.after-- <= 0) await hold.open;
      return json(res, 200, embeddings(body));
    }
    const format = ROUTES.find(([pattern]) => pattern.test(path))?.[1];
    if (req.method !== 'POST' || !format) return json(res, 404, { error: { message: `provider server: no route ${req.method} ${path}`, type: 'not_found' } });
    const next = queue.shift();
    if (!next)
      return json(
        res,
        500,
        format === 'anthropic' ? anthropicErrorBody(500, 'provider server: no scripted response left') : openaiErrorBody('provider server: no scripted response left', 'server_error'),
      );
    if (next.kind === 'hang') return void (await untilClosed(res));
    if (next.kind === 'frames') return stream(res, next.frames, {});
    if (next.kind === 'fixture') return replay(res, next);
    if (next.kind === 'raw')
      return sendPieces(
        res,
        next.status ?? 200,
        { 'content-type': 'text/event-stream', ...next.headers },
        next.pieces.map((piece) => Buffer.from(piece, 'utf8')),
      );
    if (next.kind === 'error') {
      const errorBody = format === 'anthropic' ? anthropicErrorBody(next.status, next.message, next.type) : openaiErrorBody(next.message, next.type ?? errorType(next.status), next.param);
      return json(res, next.status, errorBody, next.headers);
    }
    const model = typeof body?.model === 'string' ? body.model : 'test-model';
    const frames = format === 'openai' ? chatFrames(next, model) : format === 'openai-responses' ? responsesFrames(next, model) : anthropicFrames(next, model);
    await stream(res, frames, next);
  }

  async function stream(res: http.ServerResponse, frames: Iterable<SseFrame>, reply: ScriptedReply): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...reply.headers });
    let i = 0;
    for (const frame of frames) {
      if (reply.cutAfter !== undefined && i >= reply.cutAfter) return void res.socket?.destroy();
      if (reply.hangAfter !== undefined && i >= reply.hangAfter) return void (await untilClosed(res));
      const gate = gateAt(reply.gate, i);
      if (gate) await gate;
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (res.destroyed) return;
      const written = res.write(`${frame.event ? `event: ${frame.event}\n` : ''}data: ${typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data)}\n\n`);
      if (!written) await untilDrained(res);
      i++;
    }
    if (!res.destroyed) res.end();
  }

  async function replay(res: http.ServerResponse, scripted: Extract<Scripted, { kind: 'fixture' }>): Promise<void> {
    const recorded = readFixture(scripted.name);
    await sendPieces(res, recorded.status, recorded.headers, eventPieces(recorded.body), scripted);
  }

  /** Writes the pieces one by one, each flushed before the next (waiting at the gate), then ends. */
  async function sendPieces(
    res: http.ServerResponse,
    status: number,
    headers: Record<string, string>,
    pieces: Buffer[],
    options: { gate?: { after: number; open: Promise<void> }; delayMs?: number } = {},
  ): Promise<void> {
    res.writeHead(status, headers);
    for (const [i, piece] of pieces.entries()) {
      if (options.gate && i === options.gate.after) await options.gate.open;
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      if (res.destroyed) return;
      if (!res.write(piece)) await untilDrained(res);
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider: ProviderServer = {
    url,
    openaiUrl: `${url}/v1`,
    requests,
    enqueue: (...responses) => void queue.push(...responses),
    holdEmbeddings(after) {
      let release!: () => void;
      const hold = { after, open: new Promise<void>((resolve) => (release = resolve)) };
      embeddingsHold = hold;
      return () => {
        if (embeddingsHold === hold) embeddingsHold = undefined;
        release();
      };
    },
    async waitForRequests(count, timeoutMs = 20_000) {
      // Woken by each request as it comes; the timer only fails a wait that would hang, naming what came.
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          if (requests.length < count) return;
          clearTimeout(guard);
          waiters.delete(wake);
          resolve();
        };
        const guard = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`provider server: ${requests.length} of ${count} requests within ${timeoutMs} ms: ${requests.map((r) => `${r.method} ${r.path}`).join(', ')}`));
        }, timeoutMs);
        waiters.add(wake);
        wake();
      });
      return requests.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  if (!options.shared) running.push(provider);
  return provider;
}

/** Resolves when what was written went out, or the connection closed. */
function untilDrained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Resolves when the client closed the connection (or the server closed it). */
function untilClosed(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.socket?.destroyed) return resolve();
    res.once('close', () => resolve());
  });
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function errorType(status: number): string {
  if (status === 401) return 'invalid_api_key';
  if (status === 404) return 'model_not_found';
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/**
 * Deterministic vectors: `dimensions` numbers from the text's characters,
 * normalized, so equal texts get equal vectors. A model named `…-<N>d`
 * (e.g. `embed-24d`) answers N numbers, otherwise 16: two models give
 * vectors a test can tell apart.
 */
export function embeddingOf(text: string, dimensions = 16): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (let i = 0; i < text.length; i++) vector[(text.charCodeAt(i) + i) % dimensions]! += 1 + (text.charCodeAt(i) % 7);
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

export function dimensionsOf(model: unknown): number {
  const match = typeof model === 'string' ? /-(\d{1,4})d$/.exec(model) : null;
  return match ? Math.max(1, Number(match[1])) : 16;
}

function embeddings(body: any) {
  const inputs: string[] = Array.isArray(body?.input) ? body.input.map(String) : [String(body?.input ?? '')];
  const dimensions = dimensionsOf(body?.model);
  return {
    object: 'list',
    model: body?.model ?? 'test-embedding',
    // The openai SDK asks for base64 (little-endian float32) unless told otherwise, and decodes it.
    data: inputs.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: body?.encoding_format === 'base64' ? Buffer.from(new Float32Array(embeddingOf(text, dimensions)).buffer).toString('base64') : embeddingOf(text, dimensions),
    })),
    usage: { prompt_tokens: inputs.join(' ').length, total_tokens: inputs.join(' ').length },
  };
}

/** The tool results a recorded request carried, in its order, whatever its wire format: `[callId, text]`. */
export function toolResultsIn(body: any): [string, string][] {
  const text = (content: unknown): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p: any) => p.text ?? '').join('') : '');
  if (Array.isArray(body.input)) return body.input.filter((i: any) => i.type === 'function_call_output').map((i: any) => [i.call_id, text(i.output)]);
  return body.messages.flatMap((m: any): [string, string][] => {
    if (m.role === 'tool') return [[m.tool_call_id, text(m.content)]];
    if (Array.isArray(m.content)) return m.content.filter((b: any) => b.type === 'tool_result').map((b: any) => [b.tool_use_id, text(b.content)]);
    return [];
  });
}
