import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { streamRegularFile } from '../core/facades/userInput.js';

/** Sent with every response; a route may relax Cache-Control (content-hashed assets) or the resource policy (page files). */
export function setBaseHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(text.endsWith('\n') ? text : `${text}\n`);
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length, ...headers });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
}

export function sendBody(req: IncomingMessage, res: ServerResponse, status: number, body: string | Buffer, contentType: string, headers: Record<string, string> = {}): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': bytes.length, ...headers });
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/**
 * Streams a file the caller has already resolved (to its real path) and
 * checked. It is opened again as a regular file and not a link: a FIFO or a
 * link swapped in since the check is not served (and never waited on).
 */
export function sendFile(req: IncomingMessage, res: ServerResponse, file: string, contentType: string, headers: Record<string, string> = {}): void {
  const opened = streamRegularFile(file, { noFollow: true });
  if (!opened.ok) {
    sendText(res, 404, 'not found');
    return;
  }
  res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': opened.size, ...headers });
  const { stream } = opened;
  if (!stream) return void res.end();
  if (req.method === 'HEAD') {
    stream.destroy();
    res.end();
    return;
  }
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

/** Refuses a WebSocket upgrade with a plain HTTP answer before any handshake. */
export function rejectUpgrade(socket: Duplex, status: number, text: string): void {
  const body = `${text}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
