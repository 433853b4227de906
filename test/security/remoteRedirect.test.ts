import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { caller, startTestHost, writeMcpYaml } from '../helpers/gatewayHost.js';

/**
 * A remote MCP server's static headers (mcp.yaml `headers`, often its API
 * key) go to the server's own url only. A server url that answers with a
 * 307 to another origin must not get them sent there: fetch drops only
 * `Authorization` on such a redirect, not `X-Api-Key` and the like.
 */

const SECRET = 'hdr-secret-0123456789abcdef';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
});

async function listen(handler: http.RequestListener): Promise<number> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('a remote server that redirects to another origin', { timeout: 60_000 }, () => {
  it("does not get the server's static headers sent to the other origin (held)", async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const elsewhere = await listen((req, res) => {
      seen.push(req.headers);
      req.resume();
      res.writeHead(404).end();
    });
    const redirector = await listen((req, res) => {
      req.resume();
      res.writeHead(307, { location: `http://localhost:${elsewhere}/mcp` }).end();
    });
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { remote: { transport: 'streamable_http', url: `http://127.0.0.1:${redirector}/mcp`, headers: { 'X-Api-Key': SECRET } } }));
    const listed = await host.tools.list(caller('conv-r'));
    // The MCP SDK follows redirects within the url's origin only, and the problem says so.
    expect(listed.problems.find((p) => p.file === 'chatos::remote')?.message).toContain('not followed');
    await host.tools.call(caller('conv-r'), 'mcp_remote_anything', {}).catch(() => {});
    const leaked = seen.flatMap((headers) =>
      Object.entries(headers)
        .filter(([, value]) => String(value).includes(SECRET))
        .map(([name]) => name),
    );
    expect(leaked, 'the static header reached the other origin').toEqual([]);
  });
});
