import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { storeImageArtifacts } from '../../../../src/core/mcp/gateway/artifacts.js';
import { caller, fixtureServer, startTestHost, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { tempDir } from '../../../helpers/tempDir.js';

/** The fixture's 1x1 PNG, sent once as plain base64 and once with a data: prefix. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('image results become artifacts (docs/rules/gateway.md#images-become-artifacts), real stdio server', () => {
  it('PNG images are written under artifacts/mcp/<server>/<tool>/<timestamp>-<uuid>.png and replaced by resource links; an SVG becomes a note', async () => {
    const { host, home } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }), { clock: { now: () => NOW } });
    const call = await host.gateway.callTool(caller(), 'mcp_echo_images', {});
    const content = call.result.content;
    expect(content.map((item) => item.type)).toEqual(['resource_link', 'resource_link', 'text', 'text']);

    const dir = path.join(home, 'chatos', 'artifacts', 'mcp', 'chatos__echo', 'images');
    const files = content.slice(0, 2).map((item) => {
      if (item.type !== 'resource_link') throw new Error('not a link');
      expect(item.uri).toMatch(/^file:\/\//);
      expect(item.mimeType).toBe('image/png');
      const file = fileURLToPath(item.uri);
      expect(path.dirname(file)).toBe(dir);
      expect(path.basename(file)).toMatch(new RegExp(`^${NOW}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\.png$`));
      expect(item.name).toBe(path.basename(file));
      // Exact bytes, whether the server sent plain base64 or a data: url.
      expect(fs.readFileSync(file).equals(PNG)).toBe(true);
      return file;
    });
    expect(new Set(files).size).toBe(2);
    // Nothing else was written: the SVG is not kept.
    expect(fs.readdirSync(dir).sort()).toEqual(files.map((f) => path.basename(f)).sort());

    const [note, text] = content.slice(2);
    expect(note).toMatchObject({ type: 'text' });
    expect(note!.type === 'text' && note!.text).toContain('image/svg+xml');
    expect(text).toEqual({ type: 'text', text: 'three images' });
    // No base64 image data survives in what goes back to the model.
    expect(JSON.stringify(call.result)).not.toContain('iVBORw0KGgo');

    expect(call.artifacts).toEqual(files.map((file) => ({ path: file, mimeType: 'image/png', byteLength: PNG.length })));
  });

  it('images that cannot be saved fail the call, and the audit still records it as failed', async () => {
    const { host, home } = await startTestHost(({ home }) => writeMcpYaml(home, { echo: fixtureServer() }));
    // A file where the artifacts folder for MCP results belongs: the server answers, but nothing can be saved.
    fs.mkdirSync(path.join(home, 'chatos', 'artifacts'), { recursive: true });
    fs.writeFileSync(path.join(home, 'chatos', 'artifacts', 'mcp'), 'not a folder');
    await expect(host.gateway.callTool(caller('c-img'), 'mcp_echo_images', {})).rejects.toThrow(/ENOTDIR|EEXIST/);
    expect(host.audit.query({ limit: 1 })[0]).toMatchObject({ conversationId: 'c-img', tool: 'mcp_echo_images', outcome: 'failed', error: expect.stringMatching(/ENOTDIR|EEXIST/) });
  });
});

describe('image types a server names', () => {
  it('an image whose type is an Object.prototype member is dropped with a note, never written', () => {
    const dir = tempDir();
    const data = PNG.toString('base64');
    const { result, artifacts } = storeImageArtifacts(
      { content: ['constructor', 'toString', '__proto__'].map((mimeType) => ({ type: 'image' as const, mimeType, data })) },
      dir,
      'chatos::fx',
      'images',
      NOW,
    );
    expect(artifacts).toEqual([]);
    expect(result.content.map((item) => item.type)).toEqual(['text', 'text', 'text']);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
