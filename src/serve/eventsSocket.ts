import type { IncomingMessage } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import type { HostApiService } from '../api/types.js';
import { MAX_BODY_BYTES } from './apiRoute.js';

/**
 * `/events`: every HostApi event is pushed to every socket as JSON text.
 * A socket may also send `{"id": n, "method": …, "params": …}` and gets
 * `{"id": n, "reply": <HostApiReply>}`, validated like `POST /api`. The
 * upgrade itself is checked by the server before `wss.handleUpgrade`.
 * `?client=<id>` names the browser tab: its socket's life is the tab's, for
 * the server instances of the conversations the tab used.
 */
export class EventsHub {
  readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });
  private readonly unsubscribe: () => void;

  constructor(private readonly api: HostApiService) {
    this.unsubscribe = api.onEvent((event) => {
      const text = JSON.stringify(event);
      for (const client of this.wss.clients) if (client.readyState === WebSocket.OPEN) client.send(text);
    });
    this.wss.on('connection', (socket, req: IncomingMessage) => this.serve(socket, clientOf(req)));
  }

  private serve(socket: WebSocket, client: string | undefined): void {
    socket.on('error', () => socket.terminate());
    socket.on('message', (data, isBinary) => {
      void this.answer(socket, isBinary ? undefined : data.toString(), client);
    });
    if (client === undefined) return;
    // The tab is there while its socket is: once it is gone (closed, crashed, offline) for the grace time, its conversations' instances go.
    this.api.clientConnected(client);
    socket.once('close', () => this.api.clientDisconnected(client));
  }

  private async answer(socket: WebSocket, text: string | undefined, client: string | undefined): Promise<void> {
    let message: unknown;
    try {
      message = text === undefined ? undefined : JSON.parse(text);
    } catch {
      message = undefined;
    }
    const request = message && typeof message === 'object' ? (message as Record<string, unknown>) : undefined;
    const id = typeof request?.id === 'number' ? request.id : null;
    const reply =
      request && id !== null
        ? await this.api.handle(request.params === undefined ? { method: request.method } : { method: request.method, params: request.params }, { client })
        : { ok: false, error: { code: 'BAD_REQUEST', message: 'a socket message is JSON text: {"id": number, "method": string, "params": object}' } };
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ id, reply }));
  }

  /** Says goodbye to every socket (1001), waits briefly for the close handshakes, then cuts what is left. */
  async close(): Promise<void> {
    this.unsubscribe();
    const open = [...this.wss.clients];
    await Promise.all(
      open.map(
        (socket) =>
          new Promise<void>((resolve) => {
            if (socket.readyState === WebSocket.CLOSED) return resolve();
            const timer = setTimeout(() => {
              socket.terminate();
              resolve();
            }, 500);
            socket.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            socket.close(1001, 'ChatOS is shutting down');
          }),
      ),
    );
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

function clientOf(req: IncomingMessage): string | undefined {
  const query = req.url?.split('?')[1];
  return query === undefined ? undefined : (new URLSearchParams(query).get('client') ?? undefined);
}
