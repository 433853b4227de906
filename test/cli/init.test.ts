import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PluginBackends } from '../../src/core/uiApps/pluginBackends.js';
import { connectStdio } from '../helpers/mcpClient.js';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';
import { RUN_ALLOWED } from '../../src/core/policy/runGate.js';

describe('chatos init', () => {
  it('scaffolds a plugin that validates and whose MCP server and prompts work as generated', async () => {
    const dir = path.join(tempDir(), 'My Tools');
    const init = await runCli(['init', dir, '--json']);
    expect(init.code).toBe(0);
    expect(init.json()).toMatchObject({ id: 'my-tools' });

    const validate = await runCli(['validate', dir, '--json']);
    expect(validate.code).toBe(0);
    expect(validate.stderr).toBe('');
    const app = validate.json().apps[0];
    expect(app.serverName).toBe('my-tools.main');
    expect(app.prompt).toEqual({ title: 'my-tools', zh: true, en: true });
    expect(app.command[0]).toBe('node');

    // The generated server is a real MCP server: the SDK's own client talks to it.
    const client = await connectStdio(app.command[0], app.command.slice(1));
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(['add', 'hello']);
      const hello = await client.callTool({ name: 'hello', arguments: { name: 'Ada' }, _meta: { workdir: '/data/here' } });
      expect(hello.content).toEqual([{ type: 'text', text: 'Hello, Ada! My working folder is /data/here.' }]);
      const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
      expect(sum.content).toEqual([{ type: 'text', text: '42' }]);
      const bad = await client.callTool({ name: 'add', arguments: { a: 'x', b: 1 } });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }

    // The generated backend answers in its own process.
    const data = tempDir();
    const ctx = { pluginId: 'my-tools', pluginDir: dir, dataDir: path.join(data, 'data'), stateDir: path.join(data, 'state'), sessionRoot: data, projectRoot: data };
    const backends = new PluginBackends({ resolve: () => ({ ok: true, entry: path.join(dir, 'backend', 'index.mjs'), ctx }), gate: () => RUN_ALLOWED });
    try {
      expect(await backends.invoke('my-tools', 'hello', { name: 'Ada' })).toEqual({ ok: true, result: { text: 'Hello, Ada! This is visit 1.' } });
    } finally {
      await backends.dispose();
    }
  });

  it('uses --id and refuses a folder that is not empty', async () => {
    const root = tempDir();
    expect((await runCli(['init', path.join(root, 'a'), '--id', 'com.example.a'])).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(root, 'a', 'plugin.json'), 'utf8')).id).toBe('com.example.a');
    const again = await runCli(['init', path.join(root, 'a')]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not empty');
  });
});
