import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostApiMethods, HostEventSchema } from '../../src/shared/hostApi.js';
import { freePort } from '../helpers/gatewayHost.js';
import { apiCall, nextMessage, openSocket, raw, startServeFixture, type ServeFixture } from './serveHarness.js';

let f: ServeFixture;
beforeAll(async () => {
  f = await startServeFixture();
});
afterAll(async () => {
  await f?.stop();
});

const hostInfo = { method: 'host.info', params: {} };
const corsHeaders = (headers: Record<string, unknown>) => Object.keys(headers).filter((name) => name.startsWith('access-control-'));

describe('token', () => {
  it.each([
    ['POST /api', () => apiCall(f, hostInfo, {})],
    ['GET /', () => raw(f.port, { path: '/' })],
    ['GET /assets/app-1234.js', () => raw(f.port, { path: '/assets/app-1234.js' })],
    ['GET /artifacts/x.png', () => raw(f.port, { path: '/artifacts/x.png' })],
  ])('no token: %s is 401 with a short body and nothing of the UI', async (_name, send) => {
    const res = await send();
    expect(res.status).toBe(401);
    expect(res.body).not.toContain('<');
    expect(res.body).not.toContain(f.token);
    expect(res.body.length).toBeLessThan(100);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('no token: the events socket upgrade is refused with 401', async () => {
    const outcome = await openSocket(f.port, { path: '/events' });
    expect(outcome).toMatchObject({ kind: 'refused', status: 401 });
  });

  it('a wrong token of the same length is 401 on the API, the socket, the renderer and artifacts', async () => {
    const wrong = `${f.token.slice(0, -1)}${f.token.endsWith('A') ? 'B' : 'A'}`;
    expect(wrong).toHaveLength(f.token.length);
    expect((await apiCall(f, hostInfo, { authorization: `Bearer ${wrong}` })).status).toBe(401);
    expect(await openSocket(f.port, { path: `/events?token=${wrong}` })).toMatchObject({ kind: 'refused', status: 401 });
    expect((await raw(f.port, { path: `/?token=${wrong}` })).status).toBe(401);
    expect((await raw(f.port, { path: '/', headers: { cookie: `chatos_token_${f.port}=${wrong}` } })).status).toBe(401);
    expect((await raw(f.port, { path: `/artifacts/x.png?token=${wrong}` })).status).toBe(401);
  });

  it('a wrong token of another length (shorter, longer, empty) is 401', async () => {
    for (const wrong of ['x', `${f.token}x`, f.token.slice(0, 10), '']) {
      expect((await apiCall(f, hostInfo, { authorization: `Bearer ${wrong}` })).status).toBe(401);
      expect(await openSocket(f.port, { path: `/events?token=${encodeURIComponent(wrong)}` })).toMatchObject({ kind: 'refused', status: 401 });
    }
  });

  it('the right token gets 200 and a reply that parses against the contract', async () => {
    const res = await apiCall(f, hostInfo);
    expect(res.status).toBe(200);
    const reply = JSON.parse(res.body);
    expect(reply.ok).toBe(true);
    const info = HostApiMethods['host.info'].result.parse(reply.result);
    expect(info).toMatchObject({ face: 'serve', version: '9.9.9-test', home: f.home });
  });

  it('the token is 256 random bits, base64url, and in the printed url', () => {
    expect(f.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(f.server.url).toBe(`http://127.0.0.1:${f.port}/?token=${f.token}`);
  });
});

describe('Host header (DNS rebinding)', () => {
  it.each([['evil.example:PORT'], ['127.0.0.1:OTHER'], ['localhost'], ['127.0.0.1']])('Host %s is 421 on every route, before the token is even looked at', async (template) => {
    const other = f.port === 65535 ? 1 : f.port + 1;
    const host = template.replace('PORT', String(f.port)).replace('OTHER', String(other));
    const requests: Parameters<typeof raw>[1][] = [
      { method: 'POST', path: '/api', headers: { host, authorization: `Bearer ${f.token}`, 'content-type': 'application/json' }, body: JSON.stringify(hostInfo) },
      { path: `/?token=${f.token}`, headers: { host } },
      { path: '/ui/x/good/main/__shell', headers: { host } },
      { path: '/artifacts/x.png', headers: { host, cookie: `chatos_token_${f.port}=${f.token}` } },
    ];
    for (const request of requests) {
      const res = await raw(f.port, request);
      expect(res.status, `${request.path} with Host ${host}`).toBe(421);
      expect(res.body).not.toContain(f.token);
    }
  });

  it('a foreign Host is 421 on the socket upgrade too', async () => {
    for (const host of [`evil.example:${f.port}`, `127.0.0.1:${f.port + 1}`]) {
      expect(await openSocket(f.port, { path: `/events?token=${f.token}`, headers: { host } })).toMatchObject({ kind: 'refused', status: 421 });
    }
  });

  it('each of the three loopback names with our port is accepted', async () => {
    for (const host of [`127.0.0.1:${f.port}`, `localhost:${f.port}`, `[::1]:${f.port}`]) {
      const res = await apiCall(f, hostInfo, { authorization: `Bearer ${f.token}`, host });
      expect(res.status, host).toBe(200);
    }
  });
});

describe('Origin', () => {
  const foreign = () => ['http://evil.example', 'null', `http://127.0.0.1:${f.port + 1}`, `https://127.0.0.1:${f.port}`];

  it('a foreign Origin (another site, null, another local port) is 403 on /api even with the token', async () => {
    for (const origin of foreign()) {
      const res = await apiCall(f, hostInfo, { authorization: `Bearer ${f.token}`, origin });
      expect(res.status, origin).toBe(403);
      expect(corsHeaders(res.headers)).toEqual([]);
    }
  });

  it('a foreign Origin is 403 on the events socket even with the token', async () => {
    for (const origin of foreign()) {
      expect(await openSocket(f.port, { path: `/events?token=${f.token}`, origin }), origin).toMatchObject({ kind: 'refused', status: 403 });
    }
  });

  it('a foreign Origin is 403 on the renderer and artifacts', async () => {
    const res = await raw(f.port, { path: '/', headers: { origin: 'http://evil.example', cookie: `chatos_token_${f.port}=${f.token}` } });
    expect(res.status).toBe(403);
    expect((await raw(f.port, { path: '/artifacts/x.png', headers: { origin: 'null', cookie: `chatos_token_${f.port}=${f.token}` } })).status).toBe(403);
  });

  it('our own origins are accepted on /api and /events', async () => {
    for (const origin of [`http://127.0.0.1:${f.port}`, `http://localhost:${f.port}`, `http://[::1]:${f.port}`]) {
      expect((await apiCall(f, hostInfo, { authorization: `Bearer ${f.token}`, origin })).status, origin).toBe(200);
      const outcome = await openSocket(f.port, { path: `/events?token=${f.token}`, origin });
      expect(outcome.kind, origin).toBe('open');
      if (outcome.kind === 'open') outcome.socket.close();
    }
  });

  it('API responses carry no CORS header, whatever the request', async () => {
    const replies = [
      await apiCall(f, hostInfo),
      await apiCall(f, hostInfo, { authorization: `Bearer ${f.token}`, origin: `http://127.0.0.1:${f.port}` }),
      await apiCall(f, { method: 'nope' }),
      await apiCall(f, hostInfo, {}),
    ];
    for (const res of replies) expect(corsHeaders(res.headers)).toEqual([]);
  });

  it('an OPTIONS preflight on /api is 403 without any CORS header', async () => {
    const res = await raw(f.port, {
      method: 'OPTIONS',
      path: '/api',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(403);
    expect(corsHeaders(res.headers)).toEqual([]);
  });
});

describe('listening', () => {
  it('listens on 127.0.0.1 only: other loopback addresses of this machine are refused', async () => {
    expect(new URL(f.server.url).hostname).toBe('127.0.0.1');
    const tryConnect = (address: string, port: number) =>
      new Promise<string>((resolve) => {
        const socket = net.connect({ host: address, port });
        socket.once('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
    for (const port of [f.port, f.server.viewPort]) {
      expect(await tryConnect('127.0.0.1', port)).toBe('connected');
      // Bound to 0.0.0.0 or :: the server would answer on these as well.
      expect(await tryConnect('127.0.0.2', port)).toBe('ECONNREFUSED');
      expect(['ECONNREFUSED', 'EADDRNOTAVAIL', 'ENETUNREACH', 'EAFNOSUPPORT']).toContain(await tryConnect('::1', port));
    }
    // MCP App views run on a port of their own (docs/rules/mcp-apps.md#the-frame).
    expect(f.server.viewPort).not.toBe(f.port);
  });

  it('a port in use is an EADDRINUSE error, not a silent second listener', async () => {
    const { startHeadlessServer } = await import('../../src/serve/headlessServer.js');
    await expect(startHeadlessServer({ host: f.host, port: f.port, rendererDir: f.rendererDir, version: 'x' })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    // The views' port too; the renderer's port it had bound is let go.
    await expect(startHeadlessServer({ host: f.host, port: 0, viewPort: f.server.viewPort, rendererDir: f.rendererDir, version: 'x' })).rejects.toMatchObject({
      code: 'EADDRINUSE',
      port: f.server.viewPort,
    });
  });
});

describe('renderer', () => {
  it('GET /?token= sets the HttpOnly SameSite=Strict cookie and redirects to / without the token', async () => {
    const res = await raw(f.port, { path: `/?token=${f.token}` });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
    const cookie = res.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toContain(`chatos_token_${f.port}=${f.token}`);
    expect(cookie).toMatch(/;\s*HttpOnly/);
    expect(cookie).toMatch(/;\s*SameSite=Strict/);
    expect(cookie).toMatch(/;\s*Path=\//);
  });

  it('a client route with ?token= keeps its path and other query in the redirect', async () => {
    const res = await raw(f.port, { path: `/agents?token=${f.token}&tab=2` });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/agents?tab=2');
  });

  it('with the cookie, / is the renderer html under the strict CSP', async () => {
    const res = await raw(f.port, { path: '/', headers: { cookie: `other=1; chatos_token_${f.port}=${f.token}` } });
    expect(res.status).toBe(200);
    expect(res.body).toContain('ChatOS test renderer');
    expect(res.headers['content-type']).toContain('text/html');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${f.port} ws://localhost:${f.port};`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    // It frames its own pages and the sites of MCP App views, nothing else.
    expect(csp).toContain(`frame-src 'self' http://*.localhost:${f.server.viewPort};`);
  });

  it('client routes get index.html; a missing file with an extension is 404', async () => {
    const cookie = `chatos_token_${f.port}=${f.token}`;
    expect((await raw(f.port, { path: '/servers/abc', headers: { cookie } })).body).toContain('ChatOS test renderer');
    expect((await raw(f.port, { path: '/assets/missing-9999.js', headers: { cookie } })).status).toBe(404);
  });

  it('every response says nosniff and no-referrer; only /assets/ may be cached', async () => {
    const cookie = `chatos_token_${f.port}=${f.token}`;
    const responses = {
      index: await raw(f.port, { path: '/', headers: { cookie } }),
      asset: await raw(f.port, { path: '/assets/app-1234.js', headers: { cookie } }),
      api: await apiCall(f, hostInfo),
      unauthorized: await raw(f.port, { path: '/' }),
      misdirected: await raw(f.port, { path: '/', headers: { host: 'evil.example' } }),
    };
    for (const [name, res] of Object.entries(responses)) {
      expect(res.headers['x-content-type-options'], name).toBe('nosniff');
      expect(res.headers['referrer-policy'], name).toBe('no-referrer');
      expect(res.headers['cache-control'], name).toBe(name === 'asset' ? 'private, max-age=31536000, immutable' : 'no-store');
    }
    expect(responses.asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('dotfiles and paths out of the renderer folder are 404, not index.html', async () => {
    fs.writeFileSync(path.join(f.rendererDir, '.hidden.js'), 'hidden');
    const cookie = `chatos_token_${f.port}=${f.token}`;
    for (const p of ['/.hidden.js', '/assets/../../home/chatos/admin.db', '/%2e%2e/renderer/index.html']) {
      const res = await raw(f.port, { path: p, headers: { cookie } });
      expect(res.status, p).toBe(404);
    }
  });
});

describe('API', () => {
  it('a request that fails the contract is ok:false BAD_REQUEST, naming the field', async () => {
    const res = await apiCall(f, { method: 'agents.delete', params: {} });
    const reply = JSON.parse(res.body);
    expect(reply).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(reply.error.message).toContain('id');
  });

  it('an unknown method is ok:false UNKNOWN_METHOD with the list of methods', async () => {
    const reply = JSON.parse((await apiCall(f, { method: 'host.shutdown', params: {} })).body);
    expect(reply).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } });
    expect(reply.error.hint).toContain('host.info');
  });

  it('a body that is not JSON is 400 with a BAD_REQUEST envelope; a non-JSON content type is 415', async () => {
    const notJson = await raw(f.port, { method: 'POST', path: '/api', headers: { authorization: `Bearer ${f.token}`, 'content-type': 'application/json' }, body: '{"method": ' });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const form = await raw(f.port, { method: 'POST', path: '/api', headers: { authorization: `Bearer ${f.token}`, 'content-type': 'text/plain' }, body: JSON.stringify(hostInfo) });
    expect(form.status).toBe(415);
  });

  it('a body over 1 MiB is 413 and the server keeps serving', async () => {
    const big = JSON.stringify({ method: 'host.info', params: { pad: 'x'.repeat(1024 * 1024) } });
    const res = await raw(f.port, { method: 'POST', path: '/api', headers: { authorization: `Bearer ${f.token}`, 'content-type': 'application/json' }, body: big });
    expect(res.status).toBe(413);
    expect((await apiCall(f, hostInfo)).status).toBe(200);
  });

  it('the renderer may call the API with its cookie instead of the bearer token', async () => {
    const res = await apiCall(f, hostInfo, { cookie: `chatos_token_${f.port}=${f.token}`, origin: `http://127.0.0.1:${f.port}` });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).ok).toBe(true);
  });

  it('only POST: GET /api is 405', async () => {
    expect((await raw(f.port, { path: '/api', headers: { authorization: `Bearer ${f.token}` } })).status).toBe(405);
  });
});

describe('events socket', () => {
  it('pushes the events of an apps.rescan as JSON that parses against the contract', async () => {
    const outcome = await openSocket(f.port, { path: `/events?token=${f.token}` });
    if (outcome.kind !== 'open') throw new Error(`socket refused: ${outcome.status}`);
    const changed = nextMessage(outcome.socket, (m) => m.type === 'plugins.changed');
    const reply = JSON.parse((await apiCall(f, { method: 'apps.rescan', params: {} })).body);
    expect(reply.ok).toBe(true);
    const event = HostEventSchema.parse(await changed);
    expect(event.type).toBe('plugins.changed');
    outcome.socket.close();
  });

  it('answers {id, method, params} messages with {id, reply}, validated like the API', async () => {
    const outcome = await openSocket(f.port, { path: '/events', headers: { cookie: `chatos_token_${f.port}=${f.token}` } });
    if (outcome.kind !== 'open') throw new Error(`socket refused: ${outcome.status}`);
    const { socket } = outcome;
    const info = nextMessage(socket, (m) => m.id === 7);
    socket.send(JSON.stringify({ id: 7, method: 'host.info', params: {} }));
    expect(await info).toMatchObject({ id: 7, reply: { ok: true, result: { face: 'serve' } } });
    const bad = nextMessage(socket, (m) => m.id === 8);
    socket.send(JSON.stringify({ id: 8, method: 'agents.delete', params: {} }));
    expect(await bad).toMatchObject({ id: 8, reply: { ok: false, error: { code: 'BAD_REQUEST' } } });
    const garbage = nextMessage(socket, (m) => m.id === null);
    socket.send('not json');
    expect(await garbage).toMatchObject({ reply: { ok: false, error: { code: 'BAD_REQUEST' } } });
    socket.close();
  });

  it('a plain GET of /events (no upgrade) is 426 with the token, 401 without', async () => {
    expect((await raw(f.port, { path: `/events?token=${f.token}` })).status).toBe(426);
    expect((await raw(f.port, { path: '/events' })).status).toBe(401);
  });

  it('an upgrade on any other path is 404', async () => {
    expect(await openSocket(f.port, { path: `/api?token=${f.token}` })).toMatchObject({ kind: 'refused', status: 404 });
  });
});

describe('lifecycle', () => {
  it('close() closes open sockets (1001) and stops listening; the host stays usable', async () => {
    const own = await startServeFixture();
    try {
      const outcome = await openSocket(own.port, { path: `/events?token=${own.token}` });
      if (outcome.kind !== 'open') throw new Error('socket refused');
      const closed = new Promise<number>((resolve) => outcome.socket.once('close', (code) => resolve(code)));
      await own.server.close();
      expect(await closed).toBe(1001);
      await expect(raw(own.port, { path: '/' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      expect(own.host.plugins.catalog.apps.length).toBeGreaterThan(0);
    } finally {
      await own.stop();
    }
  });

  it('without a renderer build, / says in plain text to run npm run build', async () => {
    const own = await startServeFixture({ renderer: false });
    try {
      const res = await raw(own.port, { path: '/', headers: { cookie: `chatos_token_${own.port}=${own.token}` } });
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.body).toContain('npm run build');
      expect((await raw(own.port, { path: '/' })).status).toBe(401);
    } finally {
      await own.stop();
    }
  });

  it('a fixed port is used as given', async () => {
    const port = await freePort();
    const { startHeadlessServer } = await import('../../src/serve/headlessServer.js');
    const server = await startHeadlessServer({ host: f.host, port, rendererDir: f.rendererDir, version: 'x' });
    expect(server.port).toBe(port);
    await server.close();
  });
});
