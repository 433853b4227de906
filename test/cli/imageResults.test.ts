import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * Issue 14: an image whose base64 carries a `data:<mime>;base64,` prefix
 * (docs/rules/gateway.md#images-become-artifacts allows it) failed the whole call. Through `chatos call` and a
 * real stdio server that writes images as servers not built on the SDK do:
 * data urls with parameters, in capitals, with line breaks, percent-encoded,
 * and one that is not base64 at all.
 */

const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('chatos call with images written as data urls', () => {
  it('saves every readable image as an artifact and turns the rest into notes; the call succeeds', async () => {
    const home = tempDir();
    fs.mkdirSync(path.join(home, 'chatos'), { recursive: true });
    const server = path.join(repoRoot, 'test', 'fixtures', 'servers', 'gatewayServer.mjs');
    fs.writeFileSync(
      path.join(home, 'chatos', 'mcp.yaml'),
      `version: 1\nservers:\n  gw:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(server)}]\n    truely-stateless: true\n`,
    );

    const run = await runCli(['call', 'mcp_gw_odd_images', '--app', 'chatos', '--json', '--home', home], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const outcome = run.json();
    expect(outcome.result.isError).toBeFalsy();
    // Three PNGs (parameters, capitals, line breaks), each the same bytes the server meant.
    expect(outcome.artifacts).toHaveLength(3);
    for (const artifact of outcome.artifacts as { path: string; mimeType: string }[]) {
      expect(artifact.mimeType).toBe('image/png');
      expect(fs.readFileSync(artifact.path)).toEqual(PNG_1x1);
    }
    const texts = (outcome.result.content as { type: string; text?: string }[]).filter((item) => item.type === 'text').map((item) => item.text);
    expect(texts).toEqual([
      // Percent-encoded (no ;base64): read, then dropped as a type models do not take.
      '[an image of type image/svg+xml was returned and dropped: only JPEG, PNG, GIF and WebP are kept]',
      '[an image (image/png) was returned with data that is not base64, and was dropped]',
      'five images',
    ]);

    const audit = (await runCli(['audit', '--json', '--home', home])).json();
    expect(audit.records[0]).toMatchObject({ tool: 'mcp_gw_odd_images', outcome: 'ok' });
  }, 300_000);
});
