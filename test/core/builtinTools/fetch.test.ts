import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchPage, FetchError, type PageFetchOptions } from '../../../src/core/builtinTools/pageFetch.js';
import { HOST_UI_APP } from '../../../src/shared/agents.js';
import { startTestHost, textOf } from '../../helpers/gatewayHost.js';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A local web server; `routes` answer by path. */
async function webServer(routes: Record<string, (req: http.IncomingMessage, res: http.ServerResponse) => void>): Promise<{ base: string; port: number }> {
  const server = http.createServer((req, res) => {
    const route = routes[new URL(req.url!, 'http://x').pathname];
    if (route) route(req, res);
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, port };
}

const redirect = (location: string) => (_req: http.IncomingMessage, res: http.ServerResponse) => res.writeHead(302, { location }).end();

const PAGE = '<html><head><title>t</title><script>alert(1)</script></head><body><h1>Hello</h1><p>A <a href="/x">link</a> and <strong>bold</strong>.</p><ul><li>one</li><li>two</li></ul></body></html>';

async function refusal(url: string, options: PageFetchOptions): Promise<FetchError> {
  try {
    await fetchPage(url, options);
  } catch (error) {
    if (error instanceof FetchError) return error;
    throw error;
  }
  throw new Error(`${url} was fetched`);
}

function writeBuiltins(home: string, builtins: Record<string, unknown>): void {
  const file = path.join(home, 'chatos', 'mcp.yaml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ version: 1, servers: {}, builtins }, null, 2)}\n`);
}

/** A host with fetch switched on (private addresses as given) and an agent granted it. */
async function fetchAgent(allowPrivateAddresses: boolean) {
  const { host } = await startTestHost(({ home }) => writeBuiltins(home, { fetch: { enabled: true, allowPrivateAddresses } }));
  const agent = host.agents.create({ id: 'reader', name: 'Reader', uiApps: [{ ...HOST_UI_APP, mcp: true, mcpServerIds: ['chatos::fetch'] }] });
  const caller = host.agents.resolve(agent).callerFor('main', 'conv-fetch');
  return { host, call: async (args: Record<string, unknown>) => (await host.tools.call(caller, 'mcp_fetch_fetch', args)).result };
}

describe('the built-in fetch tool', () => {
  it('answers a page as Markdown through the gateway when private addresses are allowed, and refuses loopback when they are not', async () => {
    const { base } = await webServer({ '/page': (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE), '/moved': redirect('/page') });
    const allowed = await fetchAgent(true);
    const answer = await allowed.call({ url: `${base}/moved` });
    expect(answer.isError).toBeFalsy();
    const text = textOf(answer);
    expect(text).toContain(`${base}/page (HTTP 200, text/html)`);
    expect(text).toContain('# Hello');
    expect(text).toContain('[link](/x)');
    expect(text).toContain('**bold**');
    expect(text).toMatch(/- +one/);
    expect(text).not.toContain('alert(1)');

    const refused = await fetchAgent(false);
    const denied = await refused.call({ url: `${base}/page` });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/127\.0\.0\.1, a private, loopback or link-local address.*allow private addresses/);
  });

  it('refuses a redirect to file: and to a private address, and more than 5 redirects', async () => {
    const { base } = await webServer({
      '/to-file': redirect('file:///etc/passwd'),
      '/to-private': redirect('http://127.0.0.2:9/'),
      '/to-intranet': redirect('http://intranet.test:9/'),
      ...Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((n) => [`/hop${n}`, redirect(`/hop${n + 1}`)])),
      '/hop7': (_req, res) => res.end('arrived'),
      '/page': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('public page'),
    });
    // In this test 127.0.0.1 stands for a public address and 127.0.0.2 (and intranet.test, which resolves to it) for a private one.
    const options: PageFetchOptions = {
      allowPrivateAddresses: false,
      isPrivate: (address) => address === '127.0.0.2',
      resolve: async (hostname) => [{ address: hostname === 'intranet.test' ? '127.0.0.2' : '127.0.0.1', family: 4 }],
    };
    expect((await refusal(`${base}/to-file`, options)).code).toBe('FETCH_SCHEME');
    expect((await refusal(`${base}/to-private`, options)).code).toBe('FETCH_PRIVATE_ADDRESS');
    expect((await refusal(`${base}/to-intranet`, options)).message).toMatch(/intranet\.test is at 127\.0\.0\.2/);
    expect((await refusal(`${base}/hop0`, options)).code).toBe('FETCH_TOO_MANY_REDIRECTS');
    expect((await fetchPage(`${base}/hop2`, options)).text).toBe('arrived');
    expect((await refusal('ftp://example.com/', options)).code).toBe('FETCH_SCHEME');
  });

  it('connects to the address it checked: a name is resolved once per hop and that address is used', async () => {
    const { port } = await webServer({ '/page': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('pinned') });
    const asked: string[] = [];
    // A rebinding resolver: public the first time, private after. The host name exists in no DNS: only our lookup can connect it.
    const page = await fetchPage(`http://rebind.test:${port}/page`, {
      allowPrivateAddresses: false,
      isPrivate: (address) => address === '127.0.0.2',
      resolve: async (hostname) => {
        asked.push(hostname);
        return [{ address: asked.length === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
      },
    });
    expect(page.text).toBe('pinned');
    expect(asked).toEqual(['rebind.test']);
  });

  it('cuts an endless body at the cap and closes the connection, which the server sees', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const { base } = await webServer({
      '/endless': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        let sent = 0;
        const pump = () => {
          // A gigabyte if nobody stops it: far past the 5 MB cap.
          while (sent < 1024 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        };
        res.on('drain', pump);
        res.on('close', closed);
        pump();
      },
    });
    const { call } = await fetchAgent(true);
    const answer = textOf(await call({ url: `${base}/endless` }));
    await serverSawClose;
    expect(answer).toContain('larger than 5 MB: only its first 5 MB were read');
    expect(answer).toContain('cut: 5142880 more characters; call fetch again with start_index 100000');
  });

  it('gives up at its deadline', async () => {
    const { base } = await webServer({ '/silent': () => {} });
    expect((await refusal(`${base}/silent`, { allowPrivateAddresses: true, timeoutMs: 300 })).code).toBe('FETCH_TIMEOUT');
  });
});
