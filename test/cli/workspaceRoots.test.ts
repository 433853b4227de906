import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../src/core/host.js';
import { runCli, runCliProcess } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/** Workspace roots from the CLI (docs/reference/cli.md): an agent's `roots` field, and a conversation's own roots. */
function world() {
  const home = tempDir();
  const files = tempDir('chatos-agent-files-');
  const cli = (...args: string[]) => runCli([...args, '--home', home]);
  const file = (name: string, content: unknown) => {
    const f = path.join(files, name);
    fs.writeFileSync(f, JSON.stringify(content));
    return f;
  };
  return { home, cli, file };
}

describe('workspace roots in the CLI', () => {
  it("an agent file's roots are stored and shown; a relative one is refused naming roots[0]", async () => {
    const { cli, file } = world();
    const folder = tempDir('chatos-root-');
    const created = await cli('agents', 'create', '--file', file('a.json', { id: 'coder', name: 'Coder', roots: [folder] }), '--json');
    expect(created.code).toBe(0);
    expect(created.json().agent.roots).toEqual([folder]);
    expect((await cli('agents', 'show', 'coder')).stdout).toContain(`  workspace roots (1):\n    ${folder}\n`);

    const bad = await cli('agents', 'create', '--file', file('b.json', { name: 'Bad', roots: ['src', path.join(folder, 'gone')] }));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('roots[0]');
    expect(bad.stderr).toContain('must be an absolute folder path');
  });

  it("`conversations roots` shows a conversation's roots, sets its own (a relative folder from the current one), and --clear gives its agent's back", async () => {
    const { home, cli, file } = world();
    const [agentFolder, own] = [tempDir('chatos-root-agent-'), tempDir('chatos-root-own-')];
    expect((await cli('agents', 'create', '--file', file('a.json', { id: 'coder', name: 'Coder', roots: [agentFolder] }))).code).toBe(0);
    const host = createHost({ home, appRoot: repoRoot });
    await host.start();
    const { id } = host.chat.create('coder');
    await host.save();
    await host.dispose();

    expect((await cli('conversations', 'roots', id, '--json')).json()).toEqual({ id, roots: [agentFolder], own: false });
    const set = runCliProcess(['conversations', 'roots', id, path.basename(own), '--home', home, '--json'], { cwd: path.dirname(own) });
    expect(set.code).toBe(0);
    expect(set.json()).toEqual({ id, roots: [own], own: true });
    expect((await cli('conversations', 'roots', id)).stdout).toBe(`${id}: its own roots (1)\n  ${own}\n`);

    const refused = await cli('conversations', 'roots', id, path.join(own, 'gone'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`roots.0: ${path.join(own, 'gone')} does not exist`);
    expect((await cli('conversations', 'roots', id, '--clear', '--json')).json()).toEqual({ id, roots: [agentFolder], own: false });
    expect((await cli('conversations', 'roots', 'nope')).stderr).toContain('no conversation "nope"');
  });
});
