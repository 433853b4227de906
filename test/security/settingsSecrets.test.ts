import { describe, expect, it } from 'vitest';
import { startTestHost, writeMcpYaml } from '../helpers/gatewayHost.js';
import { connectSettings, hostSettingsContext } from '../core/settingsServer/settingsHarness.js';

/**
 * What a prompt-injected model can read without asking anyone: the
 * settings server's `read` tools run unasked, and their results go back to
 * the model. A server's secrets must not be among them: env values are
 * already shown by name only; a token written as a command-line argument
 * (`--token ghp_…`, how many servers' READMEs say to run them) or in a
 * remote server's url (hosted MCP urls often carry the key in their path or
 * query) is just as secret.
 */

const ARG_SECRET = 'ghp_ArgSecret0123456789';
const URL_SECRET = 'UrlSecret0123456789';
const QUERY_SECRET = 'QuerySecret0123456789';

describe('the settings read tools and a server secret', () => {
  it("list_registry_servers and list_mcp_servers carry no token from a server's arguments or url", async () => {
    const test = await startTestHost(({ home }) =>
      writeMcpYaml(home, {
        gh: { transport: 'stdio', command: 'node', args: ['server.js', '--token', ARG_SECRET] },
        hosted: { transport: 'streamable_http', url: `https://mcp.example.com/s/${URL_SECRET}/mcp?api_key=${QUERY_SECRET}` },
      }),
    );
    const { call } = await connectSettings(hostSettingsContext(test.host));
    for (const tool of ['list_registry_servers', 'list_mcp_servers']) {
      const text = JSON.stringify(await call(tool));
      expect(text, `${tool} lists the servers`).toContain('gh');
      for (const secret of [ARG_SECRET, URL_SECRET, QUERY_SECRET]) expect(text.includes(secret), `${tool} shows ${secret}`).toBe(false);
    }
  });
});
