import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AgentError, WorkspaceRootsError } from '../../../src/core/facades/errors.js';
import type { Host } from '../../../src/core/host.js';
import { HOST_UI_APP } from '../../../src/shared/agents.js';
import { startHttpEverything } from '../../helpers/everythingHttp.js';
import { EVERYTHING_SERVER, caller, startTestHost, textOf, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { tempDir } from '../../helpers/tempDir.js';
import { until } from '../../helpers/until.js';

/**
 * Workspace roots through the host, against the MCP project's reference
 * server over stdio: its get-roots-list tool exists only because the host
 * declares roots, and says what the server was last answered to roots/list.
 * A change (the agent saved, the conversation's own roots set) reaches it
 * as notifications/roots/list_changed, after which it asks again.
 */

const ROOTS_TOOL = 'mcp_everything_get-roots-list';
const everything = { ...HOST_UI_APP, mcp: true, mcpServerIds: ['chatos::everything'] };

async function everythingHost() {
  const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } }));
  return host;
}

/** What the server says its roots are, as one line per root's URI (empty when it has none). */
async function serverRoots(host: Host, conversationId: string, agentId = 'coder'): Promise<string[]> {
  const { caller: agentCaller } = host.tools.callers.agent(agentId, 'main', conversationId);
  const { result } = await host.tools.call(agentCaller, ROOTS_TOOL, {});
  return [...textOf(result).matchAll(/URI: (\S+)/g)].map((m) => m[1]!);
}

/**
 * Calls the tool until the server's roots are `expected`: told they changed, it asks again (roots/list) and keeps
 * the answer in its own time, which nothing tells the host; fails after 20 s of asking, saying what it last had.
 */
async function rootsBecome(host: Host, conversationId: string, expected: string[], agentId = 'coder'): Promise<void> {
  let seen: string[] = [];
  await until(
    `the server's roots to become ${JSON.stringify(expected)}`,
    async () => {
      seen = await serverRoots(host, conversationId, agentId);
      return JSON.stringify(seen) === JSON.stringify(expected) ? true : undefined;
    },
    20_000,
    50,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; they stayed ${JSON.stringify(seen)}`);
  });
}

const uri = (folder: string) => pathToFileURL(folder).href;

describe('workspace roots with @modelcontextprotocol/server-everything', () => {
  it("answers an agent's folders, and a change of the agent or the conversation is told to the server, which asks again", async () => {
    const host = await everythingHost();
    const [a, b, c] = [tempDir('chatos-root-a-'), tempDir('chatos-root-b-'), tempDir('chatos-root-c-')];
    host.agents.create({ id: 'coder', name: 'Coder', uiApps: [everything], roots: [a] });

    const names = (await host.tools.list(host.tools.callers.agent('coder', 'main', 'play-1').caller)).tools.map((t) => t.name);
    expect(names).toContain(ROOTS_TOOL);
    const first = host.tools.callers.agent('coder', 'main', 'play-1').caller;
    const text = textOf((await host.tools.call(first, ROOTS_TOOL, {})).result);
    expect(text).toContain(`1. ${path.basename(a)}\n   URI: ${uri(a)}`);

    // The agent saved with another folder: the running instance is told, asks again, and answers the new list.
    host.agents.update('coder', { name: 'Coder', uiApps: [everything], roots: [a, b] });
    await rootsBecome(host, 'play-1', [uri(a), uri(b)]);

    // The conversation's own roots win over the agent's; null gives the agent's back.
    expect(host.mcp.roots.set('play-1', [c])).toEqual([c]);
    expect(host.mcp.roots.view('play-1')).toEqual({ roots: [c], own: true });
    await rootsBecome(host, 'play-1', [uri(c)]);
    host.mcp.roots.set('play-1', null);
    expect(host.mcp.roots.view('play-1')).toEqual({ roots: [a, b], own: false });
    await rootsBecome(host, 'play-1', [uri(a), uri(b)]);
  });

  it("a stored conversation keeps its own roots on its row; another conversation's instance keeps the agent's", async () => {
    const host = await everythingHost();
    const [a, c] = [tempDir('chatos-root-a-'), tempDir('chatos-root-c-')];
    host.agents.create({ id: 'coder', name: 'Coder', uiApps: [everything], roots: [a] });
    const conversation = host.chat.create('coder');
    await rootsBecome(host, conversation.id, [uri(a)]);
    await rootsBecome(host, 'play-2', [uri(a)]);

    host.mcp.roots.set(conversation.id, [c]);
    expect(host.chat.list().find((x) => x.id === conversation.id)?.roots).toEqual([c]);
    await rootsBecome(host, conversation.id, [uri(c)]);
    expect(await serverRoots(host, 'play-2')).toEqual([uri(a)]);
  });

  it('over streamable HTTP too: the server asks on its own stream, and is told a change there', async () => {
    const port = await startHttpEverything();
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'streamable_http', url: `http://127.0.0.1:${port}/mcp` } }));
    const [a, b] = [tempDir('chatos-root-a-'), tempDir('chatos-root-b-')];
    host.agents.create({ id: 'coder', name: 'Coder', uiApps: [everything], roots: [a] });
    await rootsBecome(host, 'play-h', [uri(a)]);
    host.mcp.roots.set('play-h', [b]);
    await rootsBecome(host, 'play-h', [uri(b)]);
  });

  it('a shared instance (`*`, a truly stateless server serving every conversation) is told none', async () => {
    const host = await everythingHost();
    host.agents.create({ id: 'coder', name: 'Coder', uiApps: [everything], roots: [tempDir('chatos-root-a-')] });
    host.tools.callers.agent('coder', 'main', '*');
    expect(host.mcp.roots.view('*')).toEqual({ roots: [], own: false });
  });

  it('an agent with no roots gives none', async () => {
    const host = await everythingHost();
    host.agents.create({ id: 'coder', name: 'Coder', uiApps: [everything] });
    const { caller: agentCaller } = host.tools.callers.agent('coder', 'main', 'play-3');
    expect(textOf((await host.tools.call(agentCaller, ROOTS_TOOL, {})).result)).toContain('no roots are currently configured');
  });
});

describe('roots/list from a server its conversation may not use', () => {
  it('is refused when the app the conversation acts for is not granted the server, and the audit says why', async () => {
    const host = await everythingHost();
    const a = tempDir('chatos-root-a-');
    // Its conversation acts for an app with no grant of the server; a granted caller then makes the call.
    host.agents.create({ id: 'outsider', name: 'Outsider', hostAppId: 'com.example.other', uiApps: [everything], roots: [a] });
    host.tools.callers.agent('outsider', 'main', 'conv-o');
    const { result } = await host.tools.call(caller('conv-o'), ROOTS_TOOL, {});
    expect(textOf(result)).toContain('no roots are currently configured');
    expect(textOf(result)).not.toContain(uri(a));
    const refused = host.audit.query({ tool: 'roots/list' });
    expect(refused[0]).toMatchObject({ serverId: 'chatos::everything', decision: 'refused', outcome: 'refused', reason: 'NOT_GRANTED', conversationId: 'conv-o' });
    expect(refused[0]!.error).toContain('not granted to com.example.other, which its conversation acts for');
  });
});

describe('bad roots', () => {
  let host: Host;
  /** The field errors of an agent with these roots (it must be refused). */
  function agentRefusal(roots: unknown): AgentError['fields'] {
    try {
      host.agents.create({ name: 'Bad', roots });
    } catch (error) {
      if (error instanceof AgentError) return error.fields;
      throw error;
    }
    throw new Error('the agent was not refused');
  }

  it('are refused with the field and what to change: relative, missing, a file, a FIFO, a link to a file, twice', async () => {
    ({ host } = await startTestHost());
    const dir = tempDir('chatos-bad-roots-');
    const file = path.join(dir, 'notes.txt');
    fs.writeFileSync(file, 'x');
    const link = path.join(dir, 'to-notes');
    fs.symlinkSync(file, link);
    const folderLink = path.join(dir, 'to-dir');
    fs.symlinkSync(dir, folderLink);

    expect(agentRefusal(['src'])).toEqual([{ path: 'roots.0', message: 'must be an absolute folder path (starting with / or a drive letter such as C:\\)' }]);
    expect(agentRefusal([path.join(dir, 'gone')])).toEqual([{ path: 'roots.0', message: `${path.join(dir, 'gone')} does not exist; create the folder or remove it from the list` }]);
    expect(agentRefusal([dir, file])).toEqual([{ path: 'roots.1', message: `${file} is a file, not a folder; name the folder that holds it` }]);
    expect(agentRefusal([link])).toEqual([{ path: 'roots.0', message: `${link} is a file, not a folder; name the folder that holds it` }]);
    expect(agentRefusal([dir, `${dir}/`])).toEqual([{ path: 'roots.1', message: `${dir}/ is listed twice; list each folder once` }]);
    expect(agentRefusal([dir, path.join(dir, '..', path.basename(dir))])).toEqual([{ path: 'roots.1', message: `${path.join(dir, '..', path.basename(dir))} is listed twice; list each folder once` }]);
    if (process.platform !== 'win32') {
      const fifo = path.join(dir, 'pipe');
      const { execFileSync } = await import('node:child_process');
      execFileSync('mkfifo', [fifo]);
      expect(agentRefusal([fifo])).toEqual([{ path: 'roots.0', message: `${fifo} is not a folder (a pipe, socket or device); name a folder` }]);
    }
    // A link to a folder is a folder: kept as written.
    expect(host.agents.create({ name: 'Linked', roots: [folderLink, `${dir}/`] }).roots).toEqual([folderLink, dir]);

    // A conversation's own roots are checked the same way.
    try {
      host.mcp.roots.set('play-x', ['relative/dir']);
      throw new Error('not refused');
    } catch (error) {
      expect(error).toBeInstanceOf(WorkspaceRootsError);
      expect((error as WorkspaceRootsError).fields).toEqual([{ path: 'roots.0', message: 'must be an absolute folder path (starting with / or a drive letter such as C:\\)' }]);
    }
    expect(host.mcp.roots.view('play-x')).toEqual({ roots: [], own: false });
  });
});
