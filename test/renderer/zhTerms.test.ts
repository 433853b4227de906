import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/tempDir.js';

/** The Chinese texts use one word for each thing the window names (the issue found "MCP 服务" beside "MCP 服务器"). */

const dir = path.join(repoRoot, 'renderer/src/i18n/resources');

async function zhTexts(): Promise<[string, string][]> {
  const files = fs.readdirSync(dir).filter((name) => name.endsWith('.ts'));
  const loaded = await Promise.all(files.map((name) => import(path.join(dir, name)) as Promise<{ default: { zh: Record<string, string> } }>));
  return loaded.flatMap((file) => Object.entries(file.default.zh));
}

describe('the Chinese terms', () => {
  it('call an MCP server "MCP 服务器" everywhere', async () => {
    const texts = await zhTexts();
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter(([, text]) => /MCP 服务(?!器)/.test(text))).toEqual([]);
  });
});
