import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../src/core/host.js';
import { connectStdio } from '../helpers/mcpClient.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

describe('built-in plugins', () => {
  it('validate clean: a way-A app with its own server and prompts, a way-B app exposing its default lists', () => {
    const host = createHost({ home: tempDir(), appRoot: repoRoot });
    const result = host.catalog.rescan();
    expect(result.problems).toEqual([]);
    const notes = host.catalog.getAiContribution('chatos.notes', 'notes')!;
    expect(notes.mcp?.url).toBe(`cmd://node ${path.join(repoRoot, 'plugins', 'notes', 'mcp', 'server.mjs')}`);
    expect(notes.prompt?.zh).toContain('add_note');
    expect(notes.prompt?.en).toContain('add_note');
    expect(host.catalog.plugins.find((p) => p.id === 'chatos.notes')?.backendEntry).toBe(path.join(repoRoot, 'plugins', 'notes', 'backend', 'index.mjs'));
    const canvas = host.catalog.getAiContribution('chatos.canvas', 'canvas')!;
    expect(canvas.mcp?.url).toBe(`cmd://node ${path.join(repoRoot, 'plugins', 'canvas', 'mcp', 'server.mjs')}`);
    expect(canvas.allowMain && canvas.allowSub).toBe(true);
    for (const side of [canvas.prompt?.zh, canvas.prompt?.en]) {
      // The prompts teach the patch language with the four examples of docs/rules/canvas.md.
      for (const taught of ['patch_ui_state', 'blocks+', '"__CREATE__"', '"__DELETE__"', 'state.params.count', 'INVALID_STRUCTURE']) expect(side).toContain(taught);
    }
    expect(host.catalog.plugins.find((p) => p.id === 'chatos.canvas')?.backendEntry).toBe(path.join(repoRoot, 'plugins', 'canvas', 'backend', 'index.mjs'));
    const panel = host.catalog.getAiContribution('chatos.workbench', 'panel')!;
    expect(panel.mcp).toBeUndefined();
    expect(panel.exposure.mcpServers).toEqual({ exposure: { mode: 'list', names: ['project_files', 'memory'] }, source: 'defaults' });
  });

  it('the Notes server is a working stdio MCP server that keeps notes in the injected workdir', async () => {
    const host = createHost({ home: tempDir(), appRoot: repoRoot });
    const notes = host.catalog.getAiContribution('chatos.notes', 'notes')!;
    const workdir = tempDir();
    const client = await connectStdio(notes.mcp!.command!, notes.mcp!.args!);
    try {
      const _meta = { ...notes.meta, workdir };
      await client.callTool({ name: 'add_note', arguments: { title: 'Milk', text: 'buy two' }, _meta });
      const listed = await client.callTool({ name: 'list_notes', arguments: { keyword: 'milk' }, _meta });
      const found = (listed.structuredContent as { notes: { id: string; title: string }[] }).notes;
      expect(found.map((n) => n.title)).toEqual(['Milk']);
      expect(JSON.parse(fs.readFileSync(path.join(workdir, 'notes.json'), 'utf8'))).toHaveLength(1);
      const deleted = await client.callTool({ name: 'delete_note', arguments: { id: found[0]!.id }, _meta });
      expect(deleted.isError).toBeFalsy();
      const swatch = await client.callTool({ name: 'color_swatch', arguments: { color: '#ff0000', size: 4 } });
      const image = (swatch.content as { type: string; data?: string; mimeType?: string }[])[0]!;
      expect(image.type).toBe('image');
      expect(Buffer.from(image.data!, 'base64').subarray(1, 4).toString('ascii')).toBe('PNG');
      const tools = await client.listTools();
      expect(tools.tools.find((t) => t.name === 'delete_note')?.annotations?.destructiveHint).toBe(true);
    } finally {
      await client.close();
    }
  });
});
