import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

const NOTES_SERVER = 'chatos.notes::chatos.notes.notes';
const NOTES_TOOLS = ['mcp_chatos_notes_notes_add_note', 'mcp_chatos_notes_notes_color_swatch', 'mcp_chatos_notes_notes_delete_note', 'mcp_chatos_notes_notes_list_notes'];

/** A data home; the CLI runs with the shipped built-in plugins (Notes, Workbench) and defaults (aide). */
function world() {
  const home = tempDir();
  const files = tempDir('chatos-agent-files-');
  const cli = (...args: string[]) => runCli([...args, '--home', home]);
  const file = (name: string, content: unknown) => {
    const f = path.join(files, name);
    fs.writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return f;
  };
  return { home, cli, file };
}

const noteKeeper = {
  name: 'Note keeper',
  language: 'en',
  uiApps: [
    { pluginId: 'chatos.notes', appId: 'notes', mcp: true, prompt: true },
    // MCP off: its selected server must not be offered.
    { pluginId: 'chatos.workbench', appId: 'panel', mcp: false, prompt: true, mcpServerIds: ['aide::project_files'], promptIds: ['aide::mcp_memory'] },
  ],
};

describe('chatos agents', () => {
  it('create, list and show with --json; the id comes from the name', async () => {
    const { cli, file } = world();
    const created = await cli('agents', 'create', '--file', file('a.json', noteKeeper), '--json');
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const doc = created.json();
    expect(doc.agent).toMatchObject({ id: 'note_keeper', name: 'Note keeper', hostAppId: 'chatos', language: 'en', description: '' });
    expect(doc.serverIds).toEqual([NOTES_SERVER]);
    expect(doc.problems).toEqual([]);

    const listed = await cli('agents', 'list', '--json');
    expect(listed.code).toBe(0);
    expect(listed.json().agents).toEqual([expect.objectContaining({ id: 'note_keeper', name: 'Note keeper', problems: 0 })]);
    expect((await cli('agents', 'list')).stdout).toContain('note_keeper  Note keeper  [chatos, en, 2 app(s)]');

    const shown = await cli('agents', 'show', 'note_keeper', '--json');
    expect(shown.code).toBe(0);
    const view = shown.json();
    expect(view.serverIds).toEqual([NOTES_SERVER]);
    const notesEn = fs.readFileSync(path.join(repoRoot, 'plugins', 'notes', 'prompts', 'en.md'), 'utf8').trim();
    const memory = fs.readFileSync(path.join(repoRoot, 'defaults', 'providers', 'aide', 'prompts', 'mcp_memory.md'), 'utf8').trim();
    expect(view.prompt.text).toBe(`${notesEn}\n\n${memory}`);
    expect(view.prompt.parts.map((p: { id: string }) => p.id)).toEqual(['chatos.notes::mcp_chatos_notes_notes__en', 'aide::mcp_memory']);
    const text = await cli('agents', 'show', 'note_keeper');
    expect(text.stdout).toContain(`servers offered (1):\n    ${NOTES_SERVER}`);
    expect(text.stdout).toContain('Check the id with `list_notes` before deleting');
  });

  it('update replaces the fields from a YAML file and keeps the id; delete removes it', async () => {
    const { cli, file } = world();
    expect((await cli('agents', 'create', '--file', file('a.json', noteKeeper))).code).toBe(0);
    const updated = await cli(
      'agents',
      'update',
      'note_keeper',
      '--file',
      file('b.yaml', 'name: Notizen\nlanguage: zh\nuiApps:\n  - { pluginId: chatos.notes, appId: notes, prompt: true }\n'),
      '--json',
    );
    expect(updated.code).toBe(0);
    expect(updated.json().agent).toMatchObject({ id: 'note_keeper', name: 'Notizen', language: 'zh' });
    expect(updated.json().serverIds).toEqual([]);
    expect(updated.json().prompt.parts).toEqual([{ id: 'chatos.notes::mcp_chatos_notes_notes', title: 'Notes', lang: 'zh', source: 'app' }]);

    const deleted = await cli('agents', 'delete', 'note_keeper', '--json');
    expect(deleted.code).toBe(0);
    expect(deleted.json()).toEqual({ deleted: 'note_keeper' });
    expect((await cli('agents', 'list', '--json')).json().agents).toEqual([]);
  });

  it('a JSON syntax error exits 1 with its line and column, and creates nothing', async () => {
    const { cli, file } = world();
    const bad = file('bad.json', '{\n  "name": "x",\n  "uiApps": [,]\n}\n');
    const run = await cli('agents', 'create', '--file', bad);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${bad}:3:14: invalid JSON at line 3, column 14`);
    expect(run.stderr).toContain('[JSON_SYNTAX]');
    expect(run.stdout).toBe('');
    const yaml = file('bad.yml', 'name: [\n');
    const yamlRun = await cli('agents', 'create', '--file', yaml);
    expect(yamlRun.code).toBe(1);
    expect(yamlRun.stderr).toMatch(/invalid YAML at line 2, column 1/);
    expect((await cli('agents', 'list', '--json')).json().agents).toEqual([]);
  });

  it('an invalid agent exits 1 with one line per field and its JSON path; unknown keys are warnings', async () => {
    const { cli, file } = world();
    const bad = file('bad.json', { name: '', language: 'fr', uiApps: [{ appId: 3, mcp: 'yes', mcpServerIds: ['ok', 7] }] });
    const run = await cli('agents', 'create', '--file', bad);
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').filter((l) => l.includes('[AGENT_INVALID]'));
    expect(lines.map((l) => l.slice(`error: ${bad} `.length, l.indexOf(':', `error: ${bad} `.length)))).toEqual([
      'name',
      'language',
      'uiApps[0].pluginId',
      'uiApps[0].appId',
      'uiApps[0].mcp',
      'uiApps[0].mcpServerIds[1]',
    ]);
    expect(run.stderr).toContain('is not a valid agent (6 problems)');
    expect((await cli('agents', 'list', '--json')).json().agents).toEqual([]);

    const typo = await cli('agents', 'create', '--file', file('typo.json', { id: 'typo', name: 'Typo', uiApps: [{ pluginId: 'chatos.notes', appId: 'notes', mcpServerId: [] }] }));
    expect(typo.code).toBe(0);
    expect(typo.stderr).toContain('uiApps[0].mcpServerId: unknown key "mcpServerId" is ignored; did you mean "mcpServerIds"?');
  });

  it('refuses a taken id, unknown ids (with close matches), an id change, and bad usage', async () => {
    const { cli, file } = world();
    const f = file('a.json', { ...noteKeeper, id: 'keeper' });
    expect((await cli('agents', 'create', '--file', f)).code).toBe(0);
    const again = await cli('agents', 'create', '--file', f);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('an agent with id "keeper" already exists');

    for (const args of [
      ['show', 'keepr'],
      ['delete', 'keepr'],
      ['update', 'keepr', '--file', f],
    ]) {
      const run = await cli('agents', ...args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr, args.join(' ')).toContain('no agent "keepr"; did you mean "keeper"?');
    }
    const renamed = await cli('agents', 'update', 'keeper', '--file', file('other.json', { ...noteKeeper, id: 'other' }));
    expect(renamed.code).toBe(1);
    expect(renamed.stderr).toContain("an agent's id cannot change");
    expect((await cli('agents', 'create', '--file', path.join(path.dirname(f), 'missing.json'))).code).toBe(1);
    expect((await cli('agents', 'create')).code).toBe(2);
    expect((await cli('agents', 'rename', 'keeper')).code).toBe(2);
    expect((await cli('agents', 'show', 'keeper', '--json')).json().agent).toMatchObject({ id: 'keeper', name: 'Note keeper' });
  });

  it('show reports ids that no longer resolve, keeps them, and exits 0', async () => {
    const { cli, file } = world();
    // The panel exposes servers named "memory" (of any provider): "aid::memory" is within its exposure, and registered nowhere.
    const stale = {
      id: 'stale',
      name: 'Stale',
      uiApps: [
        { pluginId: 'chatos.notes', appId: 'notes', mcp: true },
        { pluginId: 'chatos.workbench', appId: 'panel', mcp: true, mcpServerIds: ['aid::memory'] },
        { pluginId: 'com.gone', appId: 'main' },
      ],
    };
    expect((await cli('agents', 'create', '--file', file('s.json', stale))).code).toBe(0);
    const run = await cli('agents', 'show', 'stale', '--json');
    expect(run.code).toBe(0);
    const view = run.json();
    expect(view.problems.map((p: { code: string; path: string }) => `${p.code} ${p.path}`)).toEqual(['AGENT_ID_MISSING uiApps[1].mcpServerIds[0]', 'AGENT_APP_MISSING uiApps[2]']);
    expect(run.stderr).toContain('warning: stale uiApps[1].mcpServerIds[0]: no server with registry id "aid::memory"; did you mean "aide::memory"?');
    expect(view.agent.uiApps[1].mcpServerIds).toEqual(['aid::memory']);
    expect(view.serverIds).toEqual([NOTES_SERVER]);
    expect((await cli('agents', 'list')).stdout).toContain('2 problem(s)');
  });
});

describe('chatos tools / call --agent', () => {
  it("tools --agent lists exactly the agent's selected servers' tools; call --agent runs one and refuses the rest", async () => {
    const { cli, file } = world();
    expect((await cli('agents', 'create', '--file', file('a.json', noteKeeper))).code).toBe(0);

    const tools = await cli('tools', '--agent', 'note_keeper', '--json');
    expect(tools.code).toBe(0);
    const doc = tools.json();
    expect(doc.caller).toEqual({ appId: 'chatos', agentId: 'note_keeper', conversationId: 'cli', flow: 'main', serverIds: [NOTES_SERVER] });
    // The Notes server keeps no conversation's state (truely-stateless: one instance for all), so there is nothing to release.
    expect(doc.tools.map((t: { name: string }) => t.name).sort()).toEqual([...NOTES_TOOLS]);
    expect(new Set(doc.tools.map((t: { serverId: string }) => t.serverId))).toEqual(new Set([NOTES_SERVER]));
    expect((await cli('tools', '--agent', 'note_keeper')).stdout).toContain(`${NOTES_TOOLS.length} tool(s) for agent note_keeper (as chatos) (main flow):`);

    const added = await cli('call', 'mcp_chatos_notes_notes_add_note', '--agent', 'note_keeper', '--args', JSON.stringify({ title: 'From the agent', text: 'hello' }));
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^added note \w+/);
    const listed = await cli('call', 'mcp_chatos_notes_notes_list_notes', '--agent', 'note_keeper', '--json');
    expect(listed.code).toBe(0);
    expect(listed.json().result.structuredContent.notes).toEqual([expect.objectContaining({ title: 'From the agent', text: 'hello' })]);

    // aide's project_files is registered and chatos may see it, but the agent did not select it (its app's MCP is off).
    const refused = await cli('call', 'mcp_project_files_list_allowed_directories', '--agent', 'note_keeper');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('"aide::project_files" is not among the servers selected');
    // The audit names the agent, for the call and for the refusal.
    const [refusal, call] = (await cli('audit', '--json')).json().records;
    expect(refusal).toMatchObject({
      agentId: 'note_keeper',
      appId: 'chatos',
      tool: 'mcp_project_files_list_allowed_directories',
      serverId: 'aide::project_files',
      decision: 'refused',
      reason: 'NOT_GRANTED',
    });
    expect(call).toMatchObject({ agentId: 'note_keeper', appId: 'chatos', tool: 'mcp_chatos_notes_notes_list_notes' });
  });

  it('--app with --agent is bad usage (2); an unknown agent exits 1 with close matches', async () => {
    const { cli, file } = world();
    expect((await cli('agents', 'create', '--file', file('a.json', noteKeeper))).code).toBe(0);
    const both = await cli('tools', '--agent', 'note_keeper', '--app', 'chatos');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('not both');
    expect((await cli('call', 'mcp_chatos_notes_notes_list_notes', '--agent', 'note_keeper', '--app', 'chatos')).code).toBe(2);
    expect((await cli('tools')).code).toBe(2);
    for (const args of [
      ['tools', '--agent', 'note_keepr'],
      ['call', 'mcp_chatos_notes_notes_list_notes', '--agent', 'note_keepr'],
    ]) {
      const run = await cli(...args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toContain('no agent "note_keepr"; did you mean "note_keeper"?');
    }
  });
});
