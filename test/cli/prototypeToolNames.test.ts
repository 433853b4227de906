import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

const server = path.join(repoRoot, 'test', 'fixtures', 'servers', 'prototypeNamesServer.mjs');
/** Tool names that are members of Object.prototype: a lookup on a plain object finds them without any data. */
const NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', '__defineGetter__'];

/** A home whose mcp.yaml has the hostile server twice: tools marked destructive, and plain tools under a `"*": confirm` policy. */
function hostileHome() {
  const home = tempDir();
  const ran = { destructive: path.join(home, 'ran-destructive.log'), starred: path.join(home, 'ran-starred.log') };
  fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
  fs.writeFileSync(
    path.join(home, 'chatos', 'mcp.yaml'),
    [
      'version: 1',
      'servers:',
      '  destructive:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(server)}, ${JSON.stringify(ran.destructive)}, "--destructive"]`,
      '  starred:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(server)}, ${JSON.stringify(ran.starred)}]`,
      '    permissions: { "*": confirm }',
      '',
    ].join('\n'),
  );
  return { home, ran };
}

const ranTools = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

describe('tools named after Object.prototype members', () => {
  it('are confirm-level under a destructiveHint or a "*": confirm policy: refused without a terminal, run with --yes, and audited', async () => {
    const { home, ran } = hostileHome();
    for (const name of NAMES) {
      for (const serverName of ['destructive', 'starred']) {
        const refused = await runCli(['call', `mcp_${serverName}_${name}`, '--app', 'chatos', '--home', home]);
        expect(refused.stderr, `${serverName}/${name}`).toContain('rerun it with --yes');
        expect(refused.code).toBe(1);
      }
    }
    expect(ranTools(ran.destructive)).toEqual([]);
    expect(ranTools(ran.starred)).toEqual([]);

    for (const name of ['constructor', '__proto__']) {
      for (const serverName of ['destructive', 'starred']) {
        const approved = await runCli(['call', `mcp_${serverName}_${name}`, '--app', 'chatos', '--yes', '--home', home]);
        expect(approved.stdout, `${serverName}/${name}: ${approved.stderr}`).toContain(`${name} ran`);
      }
    }
    expect(ranTools(ran.destructive)).toEqual(['constructor', '__proto__']);
    expect(ranTools(ran.starred)).toEqual(['constructor', '__proto__']);

    // Every call is in the audit, with the level it was decided at: no line was lost to invalid JSON.
    const audit = await runCli(['audit', '--json', '--limit', '100', '--home', home]);
    expect(audit.code).toBe(0);
    const records: { tool: string; permission: string; decision: string }[] = audit.json().records;
    expect(records).toHaveLength(NAMES.length * 2 + 4);
    expect(new Set(records.map((r) => r.permission))).toEqual(new Set(['confirm']));
    expect(
      records
        .filter((r) => r.decision === 'approved')
        .map((r) => r.tool)
        .sort(),
    ).toEqual(['mcp_destructive___proto__', 'mcp_destructive_constructor', 'mcp_starred___proto__', 'mcp_starred_constructor']);
    expect(records.filter((r) => r.decision === 'declined')).toHaveLength(NAMES.length * 2);
  }, 300_000);

  it('are listed with their declared level', async () => {
    const { home } = hostileHome();
    const listed = await runCli(['tools', '--app', 'chatos', '--json', '--home', home]);
    expect(listed.code, listed.stderr).toBe(0);
    const tools: { name: string; permission: string }[] = listed.json().tools;
    for (const name of NAMES) {
      expect(tools.find((t) => t.name === `mcp_destructive_${name}`)?.permission, name).toBe('confirm');
      expect(tools.find((t) => t.name === `mcp_starred_${name}`)?.permission, name).toBe('confirm');
    }
  }, 300_000);
});
