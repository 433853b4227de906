import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caller, startTestHost, writeMcpYaml } from '../../../helpers/gatewayHost.js';

/**
 * A stdio server that answers `server/discover` for 2026-07-28 and then breaks that era
 * (docs/rules/mcp-yaml.md#protocol-eras) has a problem naming it, and the call ends at once:
 * one that answers as a 2025 server, one that asks with a 2025 request mid-call.
 */

const MIXED_SERVER = path.join(import.meta.dirname, '..', '..', '..', 'fixtures', 'servers', 'mixedEraServer.mjs');

describe('a stdio server that says 2026-07-28 and breaks it', { timeout: 60_000 }, () => {
  it('by answering as a 2025 server fails its start with a problem naming it', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { mixed: { transport: 'stdio', command: process.execPath, args: [MIXED_SERVER, 'answersLike2025'] } }));
    const listed = await host.tools.list(caller('conv-mixed'));
    expect(listed.tools.filter((tool) => tool.serverId === 'chatos::mixed')).toEqual([]);
    expect(listed.problems.map((problem) => problem.message).join('\n')).toContain(
      'server "chatos::mixed" said it speaks MCP 2026-07-28 (server/discover) and then did not answer as a 2026-07-28 server',
    );
  });

  it('by asking with a 2025 request mid-call ends the call at once, naming it, and the server keeps running', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { mixed: { transport: 'stdio', command: process.execPath, args: [MIXED_SERVER, 'mixes'] } }));
    const failed = await host.tools.call(caller('conv-mixed'), 'mcp_mixed_ask', {}).then(
      () => undefined,
      (error: Error & { code?: string }) => ({ code: error.code, message: error.message }),
    );
    expect(failed?.code).toBe('SERVER_MISBEHAVED');
    expect(failed?.message).toContain('server "chatos::mixed" speaks MCP 2026-07-28 and sent a elicitation/create request as a 2025 server does');
    expect(host.mcp.servers.list().find((server) => server.id === 'chatos::mixed')?.state.kind).toBe('running');
  });
});
