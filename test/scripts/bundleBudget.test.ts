import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JS_BUDGET_BYTES, measureBuild, measurePages, overBudget, type Manifest } from '../../scripts/bundleBudget.js';
import { repoRoot } from '../helpers/tempDir.js';

/** A build with an entry, a vendor chunk, three pages and a lazy Markdown chunk, weighed by made-up sizes. */
const manifest: Manifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_vendor.js'], dynamicImports: ['src/pages/ChatPage.tsx', 'src/pages/AppsPage.tsx', 'src/pages/AgentsPage.tsx'] },
  '_vendor.js': { file: 'assets/vendor.js' },
  '_table.js': { file: 'assets/table.js', imports: ['_vendor.js'] },
  'src/pages/AppsPage.tsx': { file: 'assets/AppsPage.js', src: 'src/pages/AppsPage.tsx', isDynamicEntry: true, imports: ['_vendor.js', '_table.js'] },
  'src/pages/AgentsPage.tsx': { file: 'assets/AgentsPage.js', src: 'src/pages/AgentsPage.tsx', isDynamicEntry: true, imports: ['_vendor.js', '_table.js'] },
  'src/pages/ChatPage.tsx': { file: 'assets/ChatPage.js', src: 'src/pages/ChatPage.tsx', isDynamicEntry: true, imports: ['_vendor.js'], dynamicImports: ['src/components/chat/markdown/Markdown.tsx'] },
  'src/components/chat/markdown/Markdown.tsx': { file: 'assets/Markdown.js', src: 'src/components/chat/markdown/Markdown.tsx', isDynamicEntry: true, imports: ['_vendor.js'] },
};
const sizes =
  (overrides: Record<string, number> = {}) =>
  (file: string) =>
    ({
      'assets/index.js': 100,
      'assets/vendor.js': 200,
      'assets/table.js': 50,
      'assets/AppsPage.js': 10,
      'assets/AgentsPage.js': 15,
      'assets/ChatPage.js': 20,
      'assets/Markdown.js': 500,
      ...overrides,
    })[file] ?? 0;

describe('the renderer JS budget', () => {
  it('weighs the first load and each page with its static imports, never what a page loads lazily', () => {
    const pages = measurePages(manifest, sizes());
    expect(pages.map((p) => [p.page, p.gzipBytes])).toEqual([
      ['(first load)', 300],
      ['src/pages/AppsPage.tsx', 360],
      ['src/pages/AgentsPage.tsx', 365],
      ['src/pages/ChatPage.tsx', 320],
    ]);
    expect(pages[3]!.files).not.toContain('assets/Markdown.js');
  });

  it('fails the Chat page once what it loads up front goes over the budget, naming its chunks', () => {
    expect(overBudget(measurePages(manifest, sizes()), 400)).toEqual([]);
    const failures = overBudget(measurePages(manifest, sizes({ 'assets/ChatPage.js': 120 })), 400);
    expect(failures).toEqual([
      expect.stringMatching(/^src\/pages\/ChatPage\.tsx loads 0\.4 KB gzip before it is interactive \(budget 0\.4 KB\): assets\/index\.js, assets\/vendor\.js, assets\/ChatPage\.js/),
    ]);
    // A budgeted page that vanished from the build is a failure too, not a silent pass.
    const { 'src/pages/ChatPage.tsx': _chat, ...withoutChat } = manifest;
    expect(overBudget(measurePages(withoutChat, sizes()), 400)).toEqual(['no page matching /\\/ChatPage\\.tsx$/ in the build']);
  });

  it.runIf(fs.existsSync(path.join(repoRoot, 'dist', 'renderer', '.vite', 'manifest.json')))('holds for the built renderer', () => {
    const pages = measureBuild(path.join(repoRoot, 'dist', 'renderer'));
    expect(overBudget(pages)).toEqual([]);
    // The Agents page is the one the renderer ui bench loads cold; its editor loads on first open.
    const agents = pages.find((p) => p.page.endsWith('/AgentsPage.tsx'))!;
    expect(agents.gzipBytes).toBeLessThanOrEqual(JS_BUDGET_BYTES);
    expect(agents.files.some((file) => /AgentEditor/.test(file))).toBe(false);
    const chat = pages.find((p) => p.page.endsWith('/ChatPage.tsx'))!;
    expect(chat.gzipBytes).toBeLessThanOrEqual(JS_BUDGET_BYTES);
    // Markdown and the highlighter are not in what the Chat page loads first.
    expect(chat.files.some((file) => /Markdown|core-/.test(file))).toBe(false);
  });
});
