import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../src/core/host.js';
import { makeRepo } from '../helpers/gitApp.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * ChatOS's own servers speak both protocol eras (docs/plugins/mcp-server.md#both-protocol-eras), so a host of
 * either era can use them: the Notes, Git and WSL servers, run as ChatOS runs them (over real stdio), spoken to by the
 * SDK's 2026-07-28 client (stateless, `server/discover`; the Git server's question for the roots inside its
 * result) and by its 2025 client (`initialize`; the roots asked as a request of the server's own).
 */

interface EraClient {
  /** The revision agreed, as the 2026 client says it (the 2025 client over stdio does not). */
  readonly version: string | undefined;
  readonly instructions: string | undefined;
  tools(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>, meta?: Record<string, unknown>): Promise<{ content: unknown; structuredContent?: unknown; isError?: boolean }>;
  close(): Promise<void>;
}

const closing: EraClient[] = [];
afterEach(async () => {
  for (const client of closing.splice(0)) await client.close();
});

/** The plugin's server as ChatOS starts it: its command and arguments from the catalog. */
function serverOf(pluginId: string, appId: string): { command: string; args: string[]; meta: Record<string, unknown> } {
  const host = createHost({ home: tempDir(), appRoot: repoRoot });
  const ai = host.plugins.catalog.getAiContribution(pluginId, appId)!;
  return { command: ai.mcp!.command!, args: [...ai.mcp!.args!], meta: { ...ai.meta } };
}

/** A 2026-07-28 client (pinned: no fallback to initialize), answering roots/list with `roots`. */
async function modernClient(server: { command: string; args: string[] }, roots: string[] = []): Promise<EraClient> {
  const client = new ModernClient({ name: 'era-test', version: '1.0.0' }, { capabilities: { roots: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('roots/list', () => ({ roots: roots.map((root) => ({ uri: pathToFileURL(root).href })) }));
  await client.connect(new ModernStdio({ command: server.command, args: server.args, stderr: 'ignore' }));
  const era: EraClient = {
    version: client.getNegotiatedProtocolVersion(),
    instructions: client.getInstructions(),
    tools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: (name, args, _meta) => client.callTool({ name, arguments: args, ...(_meta ? { _meta } : {}) }),
    close: () => client.close(),
  };
  closing.push(era);
  return era;
}

/** A 2025 client (initialize), answering the server's roots/list request with `roots`. */
async function legacyClient(server: { command: string; args: string[] }, roots: string[] = []): Promise<EraClient> {
  const client = new LegacyClient({ name: 'era-test', version: '1.0.0' }, { capabilities: { roots: {} } });
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((root) => ({ uri: pathToFileURL(root).href })) }));
  const transport = new LegacyStdio({ command: server.command, args: server.args, stderr: 'ignore' });
  await client.connect(transport);
  const era: EraClient = {
    version: undefined,
    instructions: client.getInstructions(),
    tools: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: (name, args, _meta) => client.callTool({ name, arguments: args, ...(_meta ? { _meta } : {}) }) as ReturnType<EraClient['call']>,
    close: () => client.close(),
  };
  closing.push(era);
  return era;
}

const textOf = (result: { content: unknown }) => (result.content as { type: string; text?: string }[]).map((item) => item.text ?? '').join('');

describe("ChatOS's own servers, from a client of each protocol era", { timeout: 60_000 }, () => {
  for (const [era, connect] of [
    ['2026-07-28', modernClient],
    ['2025', legacyClient],
  ] as const) {
    it(`Notes, from a ${era} client: notes kept in the workdir the request's _meta names`, async () => {
      const notes = serverOf('chatos.notes', 'notes');
      const client = await connect(notes);
      if (era === '2026-07-28') expect(client.version).toBe('2026-07-28');
      const workdir = tempDir();
      const _meta = { ...notes.meta, workdir };
      expect(textOf(await client.call('add_note', { title: `Milk (${era})`, text: 'buy two' }, _meta))).toMatch(/^added note /);
      const listed = await client.call('list_notes', { keyword: 'milk' }, _meta);
      expect((listed.structuredContent as { notes: { title: string }[] }).notes.map((note) => note.title)).toEqual([`Milk (${era})`]);
      expect(JSON.parse(fs.readFileSync(path.join(workdir, 'notes.json'), 'utf8'))).toHaveLength(1);
    });

    it(`Git, from a ${era} client: the conversation's roots asked and answered, the repository inside them read`, async () => {
      const repo = makeRepo();
      const client = await connect(serverOf('chatos.git', 'git'), [repo]);
      if (era === '2026-07-28') expect(client.version).toBe('2026-07-28');
      const status = await client.call('status', {});
      expect(status.isError).toBeFalsy();
      expect((status.structuredContent as { branch?: string }).branch).toBe('main');
      // A folder outside the roots the client gave is refused, whichever way the roots came.
      const outside = await client.call('status', { repo: makeRepo() });
      expect(outside.isError).toBe(true);
    });

    it(`WSL, from a ${era} client: off Windows it offers no tools and says why`, async () => {
      const client = await connect(serverOf('chatos.wsl', 'wsl'));
      if (era === '2026-07-28') expect(client.version).toBe('2026-07-28');
      expect(await client.tools()).toEqual([]);
      expect(client.instructions).toContain('Windows');
    });
  }
});
