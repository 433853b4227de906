import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthStepError } from './oauthStepError.js';

/**
 * The redirect of a desktop app's sign-in (RFC 8252 §7.3): a listener on
 * 127.0.0.1 at a port the system picks, for one sign-in. The browser comes
 * back to http://127.0.0.1:PORT/callback?code=…&state=…; the listener takes
 * the first request whose `state` is this sign-in's, answers "you can close
 * this tab", and closes. A request with another state (a stale tab, another
 * sign-in, another program), a second hit, a request for another Host (DNS
 * rebinding) or an authorization server's `error` ends the sign-in with a
 * problem; no code is exchanged.
 */

export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

const PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title><meta name="viewport" content="width=device-width"></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;line-height:1.5"><h1>${title}</h1><p>${text}</p></body></html>`;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface LoopbackCallback {
  /** The redirect_uri to register and send. */
  readonly redirectUrl: string;
  /** The state sent with the authorization request. */
  readonly state: string;
  /** The authorization code, once the browser comes back; rejects on refusal, cancel or timeout. */
  readonly code: Promise<string>;
  /** The `iss` the authorization server put on the redirect (RFC 9207), once the code came; undefined when it put none. */
  readonly iss: () => string | undefined;
  /** Ends the wait (cancel) and the listener. */
  close(reason?: string): void;
}

export async function startLoopbackCallback(options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<LoopbackCallback> {
  const state = randomBytes(24).toString('base64url');
  const timeoutMs = options.timeoutMs ?? SIGN_IN_TIMEOUT_MS;
  let settle!: { resolve: (code: string) => void; reject: (error: Error) => void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // A caller that stops waiting (cancel) must not leave an unhandled rejection behind.
  code.catch(() => {});
  let done = false;
  let host = '';
  let iss: string | undefined;
  const server = http.createServer((request, response) => {
    const answer = (status: number, title: string, text: string) => {
      response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      response.end(PAGE(title, text));
    };
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.headers.host !== host || request.method !== 'GET' || url.pathname !== '/callback') {
      answer(404, 'Not found', 'This address only takes ChatOS sign-in redirects.');
      return;
    }
    if (done) {
      answer(400, 'Already used', 'This sign-in is already finished. You can close this tab.');
      return;
    }
    const got = url.searchParams.get('state') ?? '';
    if (!sameSecret(got, state)) {
      finish(
        new OAuthStepError(
          'authorization',
          "the browser came back with a state that is not this sign-in's (a stale tab, another sign-in, or another program); nothing was exchanged",
          'sign in again, and finish it in the tab that ChatOS opens',
        ),
      );
      answer(400, 'Sign-in refused', 'This answer does not belong to the sign-in ChatOS started. Nothing was signed in. You can close this tab and sign in again from ChatOS.');
      return;
    }
    const error = url.searchParams.get('error');
    if (error) {
      const description = url.searchParams.get('error_description');
      finish(
        new OAuthStepError(
          'authorization',
          `the authorization server answered "${error}"${description ? `: ${description}` : ''}`,
          error === 'access_denied' ? 'sign in again and allow ChatOS access' : "sign in again; if it keeps failing, tell the server's operator",
        ),
      );
      answer(400, 'Sign-in failed', `The authorization server said: ${escapeHtml(error)}. You can close this tab.`);
      return;
    }
    const received = url.searchParams.get('code');
    if (!received) {
      finish(new OAuthStepError('authorization', 'the browser came back without a code', 'sign in again'));
      answer(400, 'Sign-in failed', 'No code came back. You can close this tab and sign in again from ChatOS.');
      return;
    }
    iss = url.searchParams.get('iss') ?? undefined;
    finish(undefined, received);
    answer(200, 'Signed in', 'ChatOS has your sign-in. You can close this tab.');
  });

  const timer = setTimeout(
    () => finish(new OAuthStepError('authorization', `nobody finished signing in within ${Math.round(timeoutMs / 1000)} s`, 'sign in again and finish in the browser tab that opens')),
    timeoutMs,
  );
  timer.unref();
  const onAbort = () => finish(new OAuthStepError('authorization', 'the sign-in was cancelled', 'sign in again when you are ready'));
  options.signal?.addEventListener('abort', onAbort, { once: true });

  function finish(error: Error | undefined, value?: string): void {
    if (done) return;
    done = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    if (error) settle.reject(error);
    else settle.resolve(value!);
    // The answer page is written first; then the listener stops taking connections.
    setImmediate(() => {
      server.close();
      server.closeIdleConnections();
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  host = `127.0.0.1:${port}`;
  if (options.signal?.aborted) onAbort();
  return {
    redirectUrl: `http://127.0.0.1:${port}/callback`,
    state,
    code,
    iss: () => iss,
    close: (reason) => finish(new OAuthStepError('authorization', reason ?? 'the sign-in was cancelled', 'sign in again when you are ready')),
  };
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
