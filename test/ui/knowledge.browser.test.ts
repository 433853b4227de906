import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtures } from '../core/knowledge/knowledgeFiles.js';
import { chooseOption, launchChromium, pageReady, screenshot, serveApi, type ServeProcess, startServe } from '../helpers/browser.js';
import { absentPgUrl, startPgServer, type PgServer } from '../helpers/pgliteServer.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';

/**
 * The Knowledge page in Chromium against a real `chatos serve`, its
 * embedding model on the local provider server: create a base, drop a
 * Markdown and a PDF file on it, see them grouped by file, search and see
 * the sources, delete a file, switch to Chinese, delete the base.
 * Screenshots: test-output/screenshots/knowledge-*.
 */

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;
let files: { md: string; pdf: string };
/**
 * The shared PostgreSQL one test adds a base on, started with the file: PGlite takes seconds to start, time the
 * tests before that one use. That test awaits it (and fails with its error, if it did not start).
 */
let pgStarting: Promise<PgServer> | undefined;

beforeAll(async () => {
  pgStarting = startPgServer();
  pgStarting.catch(() => {});
  provider = await startProviderServer({ shared: true });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-kb-'));
  files = writeFixtures(fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-kb-files-')));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  await serveApi(serve)('models.save', { model: { id: 'embed', name: 'Embed', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-16d' } });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(serve.url);
  await page.getByTestId('nav-knowledge').click();
  await page.getByTestId('page-knowledge').waitFor({ timeout: 20_000 });
  await pageReady(page, '/knowledge');
});

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  await pgStarting?.then(
    (pg) => pg.stop(),
    () => {},
  );
  fs.rmSync(home, { recursive: true, force: true });
  fs.rmSync(path.dirname(files.md), { recursive: true, force: true });
});

describe('the Knowledge page', () => {
  it('creates a base with an embedding model, adds dropped files, lists them by file, and searches with sources', async () => {
    await page.getByTestId('kb-empty').waitFor();
    await page.getByTestId('kb-add').click();
    await page.getByTestId('kb-form-name').fill('Garden notes');
    await page.getByTestId('kb-form-description').fill('How to keep a garden');
    await chooseOption(page, page.getByTestId('kb-form-model'), 'Embed (embed-16d)');
    await page.getByTestId('kb-form-chunk-size').fill('200');
    await page.getByTestId('kb-form-chunk-overlap').fill('20');
    await screenshot(page, 'knowledge-01-create');
    await page.getByTestId('kb-form-save').click();
    const detail = page.getByTestId('kb-detail-garden_notes');
    await detail.waitFor();
    expect(await detail.textContent()).toContain('Hybrid · embed');

    await page.getByTestId('page-knowledge').locator('input[type=file]').setInputFiles([files.md, files.pdf]);
    await page.getByTestId('kb-file-guide.md').waitFor({ timeout: 30_000 });
    await page.getByTestId('kb-file-field-notes.pdf').waitFor({ timeout: 30_000 });
    await page.getByTestId('kb-upload-progress').waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.getByTestId('kb-item-garden_notes').textContent()).toMatch(/2 file\(s\), \d+ chunk\(s\)/);
    // The vectors came from the model entry the base names, and from nowhere else.
    expect(provider.requests.filter((r) => r.path.endsWith('/embeddings')).every((r) => r.body.model === 'embed-16d')).toBe(true);
    expect(provider.requests.some((r) => r.path.endsWith('/embeddings'))).toBe(true);

    await page.getByTestId('kb-file-guide.md').locator('.ant-table-row-expand-icon').click();
    await page.getByTestId('kb-chunk-0').waitFor();
    await screenshot(page, 'knowledge-02-documents');

    await page.getByRole('tab', { name: 'Search' }).click();
    await page.getByTestId('kb-search').locator('input').fill('ladybugs aphids');
    await page.getByTestId('kb-search').locator('input').press('Enter');
    const first = page.getByTestId('kb-hit-0');
    await first.waitFor();
    expect(await page.getByTestId('kb-search-mode').textContent()).toBe('Hybrid search (words + meaning)');
    const hit = (await first.textContent()) ?? '';
    expect(hit).toContain('guide.md');
    expect(hit).toContain('Pests');
    expect(hit).toContain('Ladybugs eat aphids');
    await screenshot(page, 'knowledge-03-search');
  });

  it('deletes a file, shows the page in Chinese, and deletes the base', async () => {
    await page.getByRole('tab', { name: 'Documents' }).click();
    await page.getByTestId('kb-file-remove-field-notes.pdf').click();
    await page.getByTestId('kb-file-remove-ok').click();
    await page.getByTestId('kb-file-field-notes.pdf').waitFor({ state: 'detached' });
    // The list's counts come from a refetch after the delete: wait for it rather than read at once.
    await page
      .getByTestId('kb-item-garden_notes')
      .filter({ hasText: /^Garden notes1 file\(s\)/ })
      .waitFor();

    await page.getByTestId('locale-switch').getByText('中文').click();
    await page.getByText('混合检索 · embed').waitFor();
    expect(await page.getByTestId('page-knowledge').textContent()).toContain('知识库');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'knowledge-04-zh');
    await page.getByTestId('locale-switch').getByText('EN').click();

    await page.getByTestId('kb-delete').click();
    await page.getByTestId('kb-delete-ok').click();
    await page.getByTestId('kb-empty').waitFor();
    expect(fs.readdirSync(path.join(home, 'chatos', 'knowledge'))).toEqual([]);
  });

  it('attaches a base to an agent in the Agents editor (and shows the field in Chinese)', async () => {
    const api = serveApi(serve);
    await api('knowledge.create', { base: { id: 'recipes', name: 'Recipes' } });
    await api('agents.save', { agent: { id: 'cook', name: 'Cook' } });
    await page.getByTestId('nav-agents').click();
    await page.getByTestId('agent-edit-cook').click();
    await page.getByTestId('agent-knowledge-bases').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Recipes (recipes)' }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('agent-save').click();
    await page.getByTestId('agent-editor').waitFor({ state: 'hidden' });
    const { agents } = (await api('agents.list')) as { agents: { id: string; knowledgeBases: string[] }[] };
    expect(agents.find((a) => a.id === 'cook')?.knowledgeBases).toEqual(['recipes']);

    await page.getByTestId('locale-switch').getByText('中文').click();
    await page.getByTestId('agent-edit-cook').click();
    await expect.poll(() => page.getByTestId('agent-editor').textContent()).toContain('它可以检索的知识库');
    await expect.poll(() => page.getByTestId('agent-knowledge-bases').textContent()).toContain('Recipes (recipes)');
  });

  it('adds a drop of many files as one change: embedded in requests of many chunks each, the base written once', async () => {
    const api = serveApi(serve);
    await api('knowledge.create', { base: { id: 'many', name: 'Many notes', embeddingModel: 'embed' } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-kb-many-'));
    const notes = Array.from({ length: 200 }, (_, i) => {
      const file = path.join(dir, `note-${i}.md`);
      fs.writeFileSync(file, `# Note ${i}\n\nThis note is about topic${i}.\n`);
      return file;
    });
    // A fresh page: the test before leaves the agent editor open.
    await page.goto(serve.url);
    await page.getByTestId('locale-switch').getByText('EN').click();
    await page.getByTestId('nav-knowledge').click();
    await page.getByTestId('kb-item-many').click();
    await page.getByTestId('kb-detail-many').waitFor();
    const embeddingsBefore = provider.requests.filter((r) => r.path.endsWith('/embeddings')).length;
    await page.getByTestId('page-knowledge').locator('input[type=file]').setInputFiles(notes);
    await page.getByText('Added 200 files: 200 chunk(s) in all').waitFor({ timeout: 60_000 });
    await page.getByTestId('kb-item-many').filter({ hasText: '200 file(s), 200 chunk(s)' }).waitFor();
    // One add: its 200 chunks went to the model 64 at a time (an add per file would have made 200 requests).
    expect(provider.requests.filter((r) => r.path.endsWith('/embeddings')).length - embeddingsBefore).toBe(Math.ceil(200 / 64));
    await screenshot(page, 'knowledge-05-many-files');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('creates a base on a shared PostgreSQL from the form, its password kept out of base.json; a server that is gone is said so by name', async () => {
    // A real PostgreSQL with pgvector in its own process (test/helpers/pgliteServer.ts), and an address where none listens.
    const pg = await pgStarting!;
    await page.getByTestId('kb-add').click();
    await page.getByTestId('kb-form-name').fill('Team notes');
    await chooseOption(page, page.getByTestId('kb-form-engine'), 'A shared PostgreSQL (pgvector)');
    await page.getByTestId('kb-form-url').fill(pg.url);
    await page.getByTestId('kb-form-collection').fill('team');
    await page.getByTestId('kb-form-password').fill('team-secret');
    await screenshot(page, 'knowledge-06-shared-engine');
    await page.getByTestId('kb-form-save').click();
    await page.getByTestId('kb-detail-team_notes').waitFor();
    const { knowledgeBases } = await serveApi(serve)<{ knowledgeBases: { id: string; engine?: unknown }[] }>('knowledge.list');
    expect(knowledgeBases.find((b) => b.id === 'team_notes')?.engine).toEqual({ kind: 'postgres', url: pg.url, collection: 'team' });
    expect(fs.readFileSync(path.join(home, 'chatos', 'knowledge', 'team_notes', 'base.json'), 'utf8')).not.toContain('team-secret');

    await page.getByTestId('kb-add').click();
    await page.getByTestId('kb-form-name').fill('Far away');
    await chooseOption(page, page.getByTestId('kb-form-engine'), 'A shared PostgreSQL (pgvector)');
    await page.getByTestId('kb-form-url').fill(await absentPgUrl());
    await page.getByTestId('kb-form-save').click();
    const error = page.getByTestId('kb-form-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('knowledge base "far_away": its PostgreSQL engine at postgres://chatos@127.0.0.1');
    await screenshot(page, 'knowledge-07-shared-engine-down');
    expect(fs.existsSync(path.join(home, 'chatos', 'knowledge', 'far_away'))).toBe(false);
    // The user gives up on it: the form closes, and the page is theirs again.
    await page.keyboard.press('Escape');
    await page.getByTestId('kb-form').waitFor({ state: 'detached' });
  });

  it('shows a long add with its count and an estimate of the time left, and Cancel stops it with nothing added', async () => {
    const api = serveApi(serve);
    await api('knowledge.create', { base: { id: 'long', name: 'Long add', embeddingModel: 'embed', chunkSize: 200, chunkOverlap: 0 } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-kb-long-'));
    const file = path.join(dir, 'long.md');
    // 256 paragraphs of about 150 characters: 256 chunks, four requests of 64 to the model.
    fs.writeFileSync(
      file,
      Array.from(
        { length: 256 },
        (_, i) => `Paragraph ${i} is about the garden, its beds, its paths, the weather of week ${i % 52} in the year, and which of its plants grew, flowered or failed.`,
      ).join('\n\n'),
    );
    await page.getByTestId('kb-item-long').click();
    await page.getByTestId('kb-detail-long').waitFor();
    // The first request of 64 is answered; the second waits: the add stands still at 64 of 256, with a pace measured.
    const release = provider.holdEmbeddings(1);
    try {
      await page.getByTestId('page-knowledge').locator('input[type=file]').setInputFiles(file);
      const progress = page.getByTestId('kb-upload-progress');
      await progress.filter({ hasText: 'long.md: embedding 64/256' }).waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('kb-upload-eta').textContent()).toMatch(/^about \d+ s left$/);
      await screenshot(page, 'knowledge-08-long-add');
      await page.getByTestId('kb-upload-cancel').click();
      await page.getByText(/long\.md: .*cancelled/).waitFor({ timeout: 30_000 });
      await progress.waitFor({ state: 'detached' });
    } finally {
      release();
    }
    const { knowledgeBases } = (await api('knowledge.list')) as { knowledgeBases: { id: string; counts: { files: number; chunks: number } }[] };
    expect(knowledgeBases.find((b) => b.id === 'long')?.counts).toEqual({ files: 0, chunks: 0 });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
