import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HostApiService } from '../api/types.js';
import { sendJson, sendText } from './responses.js';

export const MAX_BODY_BYTES = 1024 * 1024;

const badRequest = (message: string) => ({ ok: false, error: { code: 'BAD_REQUEST', message } });

/**
 * `POST /api` with `{method, params}`: the caller is already authenticated.
 * An `X-ChatOS-Client` header names the tab that sent it (see EventsHub).
 * The reply is the HostApi envelope, `ok:false` included, with status 200;
 * only a body that is not a request at all gets a 4xx.
 */
export async function handleApi(req: IncomingMessage, res: ServerResponse, api: HostApiService): Promise<void> {
  // A JSON content type cannot be sent cross-site without a preflight, and preflights are refused.
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    return sendJson(res, 415, badRequest('send the request as JSON with "Content-Type: application/json"'));
  }
  const declared = Number(req.headers['content-length']);
  if (declared > MAX_BODY_BYTES) {
    req.resume();
    return sendTooLarge(res);
  }
  const body = await readBody(req);
  if (body === 'too-large') return sendTooLarge(res);
  if (body === 'aborted') return;
  let raw: unknown;
  try {
    raw = JSON.parse(body.toString('utf8'));
  } catch (error) {
    return sendJson(res, 400, badRequest(`the body is not JSON (${(error as Error).message}); send {"method": "...", "params": {...}}`));
  }
  sendJson(res, 200, await api.handle(raw, { client: clientOf(req), signal: senderGone(res) }));
}

/**
 * Aborts when the connection closes before the answer is sent: the tab that asked is gone (closed, reloaded, or the
 * server itself is closing its connections), so nobody will read the answer.
 */
function senderGone(res: ServerResponse): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) gone.abort(new Error('the request was closed before its answer'));
  });
  return gone.signal;
}

/** The header a browser tab sends with its requests, so the conversations it uses are tied to it (its event socket carries the same id). */
export const CLIENT_HEADER = 'x-chatos-client';

function clientOf(req: IncomingMessage): string | undefined {
  const value = req.headers[CLIENT_HEADER];
  return typeof value === 'string' ? value : undefined;
}

function sendTooLarge(res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  sendJson(res, 413, badRequest(`a request body is at most ${MAX_BODY_BYTES} bytes`));
}

/** The whole body, or 'too-large' as soon as it passes the limit (the rest is read and dropped so the client sees the answer). */
function readBody(req: IncomingMessage): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        resolve('too-large');
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', () => resolve('aborted'));
    req.on('aborted', () => resolve('aborted'));
  });
}

/** Preflights are how a page on another origin asks to call the API: the answer is no, and no CORS header says otherwise. */
export function refusePreflight(res: ServerResponse): void {
  sendText(res, 403, 'cross-origin requests to the ChatOS API are not allowed');
}
