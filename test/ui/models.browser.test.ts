import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseOption, launchChromium, pageReady, screenshot, type ServeProcess, startServe } from '../helpers/browser.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';

/**
 * The Models page in Chromium against a real `chatos serve`, with a model
 * pointing at the local provider server: add it from a preset with a key
 * typed into a password field, test it (an answer, then a bad key in
 * words), edit it keeping the key, and remove it. The key reaches the
 * provider and never the page. Screenshots: test-output/screenshots/models-*.
 */

const KEY = 'sk-browser-models-Vb7nQ2xLp';

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let home: string;

async function api<T = any>(method: string, params: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${serve.origin}/api`, {
    method: 'POST',
    headers: { authorization: `Bearer ${serve.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ method, params }),
  });
  const text = await response.text();
  expect(text).not.toContain(KEY);
  const reply = JSON.parse(text) as { ok: boolean; result?: T; error?: { message: string } };
  if (!reply.ok) throw new Error(`${method}: ${reply.error?.message}`);
  return reply.result as T;
}

const pageHasNoKey = async () => expect(await page.content()).not.toContain(KEY);

beforeAll(async () => {
  // The provider server lives in this process and serves every test of the file: closed in afterAll.
  provider = await startProviderServer({ shared: true, models: ['embed-24d', 'test-model'] });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-models-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  chromium = await launchChromium();
  page = await chromium.context.newPage();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(serve.url);
  await page.getByTestId('nav-models').click();
  await page.getByTestId('page-models').waitFor({ timeout: 20_000 });
  await pageReady(page, '/models');
});

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  fs.rmSync(home, { recursive: true, force: true });
});

describe('the Models page', () => {
  it('adds a model from a preset with its key in a password field; the key is stored, masked, never shown back', async () => {
    await page.getByTestId('model-add').click();
    await chooseOption(page, page.getByTestId('model-preset'), 'Any OpenAI-compatible URL');
    await page.getByTestId('model-name').fill('Local test model');
    await page.getByTestId('model-id').fill('local');
    await page.getByTestId('model-base-url').fill(provider.openaiUrl);
    await page.getByTestId('model-model').fill('test-model');
    await page.getByTestId('model-key-kind').getByText('Stored on this machine').click();
    const keyField = page.getByTestId('model-api-key');
    expect(await keyField.getAttribute('type')).toBe('password');
    await keyField.fill(KEY);
    await screenshot(page, 'models-01-add');
    await page.getByTestId('model-save').click();
    await page.getByTestId('model-row-local').waitFor();
    expect(await page.getByTestId('model-row-local').textContent()).toContain('key stored');
    const { models } = await api<{ models: { id: string; keyState: unknown }[] }>('models.list');
    expect(models).toEqual([expect.objectContaining({ id: 'local', keyState: { source: 'stored', set: true } })]);
    expect(JSON.parse(fs.readFileSync(path.join(home, 'chatos', 'secrets.json'), 'utf8')).secrets['model:local']).toBe(KEY);
    expect(await page.getByTestId('models-key-store').textContent()).toBe(`Stored keys are kept in a file only you can read: ${path.join(home, 'chatos', 'secrets.json')}`);
    await pageHasNoKey();
  });

  it("tests it: the answer, then a bad key in words with the provider's text (the key masked)", async () => {
    provider.enqueue({ kind: 'reply', text: 'OK', usage: { input: 6, output: 1 } });
    await page.getByTestId('model-test-local').click();
    const result = page.getByTestId('model-test-result-local');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    expect(await result.textContent()).toMatch(/Answered in \d+ ms: OK/);
    expect(provider.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    await screenshot(page, 'models-02-test-ok');

    provider.enqueue({ kind: 'error', status: 401, message: `Incorrect API key provided: ${KEY}` });
    await page.getByTestId('model-test-local').click();
    await page.locator('[data-testid="model-test-result-local"][data-ok="false"]').waitFor();
    expect(await result.getAttribute('data-kind')).toBe('auth');
    const text = await result.textContent();
    expect(text).toContain('HTTP 401: the provider refused the key (missing, wrong or expired)');
    expect(text).toContain('The provider said: Incorrect API key provided: ***');
    await pageHasNoKey();
    await screenshot(page, 'models-03-test-401');
  });

  it('a refused connection is not worded as something the provider said: nothing answered', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await api('models.save', { model: { id: 'refused', name: 'Nobody there', api: 'openai', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' } });
    await page.getByTestId('model-test-refused').click();
    const result = page.locator('[data-testid="model-test-result-refused"][data-ok="false"]');
    await result.waitFor();
    expect(await result.getAttribute('data-kind')).toBe('network');
    const text = await result.textContent();
    expect(text).toContain(`127.0.0.1:${port} refused the connection`);
    expect(text).toContain('Details: ');
    expect(text).not.toContain('The provider said');
    await screenshot(page, 'models-03b-test-refused');
    await api('models.remove', { id: 'refused' });
    await page.getByTestId('model-row-refused').waitFor({ state: 'detached' });
  });

  it('edits it without showing the key: an empty key field keeps the stored key', async () => {
    await page.getByTestId('model-edit-local').click();
    const keyField = page.getByTestId('model-api-key');
    await keyField.waitFor();
    expect(await keyField.inputValue()).toBe('');
    await pageHasNoKey();
    await page.getByTestId('model-name').fill('Local model (renamed)');
    await page.getByTestId('model-vision').click();
    await page.getByTestId('model-save').click();
    await page.getByTestId('model-editor').waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await api<{ models: { name: string; vision: boolean; keyState: { set: boolean } }[] }>('models.list')).models[0])
      .toMatchObject({ name: 'Local model (renamed)', vision: true, keyState: { set: true } });
    provider.enqueue({ kind: 'reply', text: 'OK again' });
    await page.getByTestId('model-test-local').click();
    await page.locator('[data-testid="model-test-result-local"][data-ok="true"]').waitFor();
    expect(provider.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("picks a name from the provider's list; an embedding entry's test reports its dimension, and only it is offered to knowledge bases", async () => {
    await page.getByTestId('model-add').click();
    await chooseOption(page, page.getByTestId('model-preset'), 'Any OpenAI-compatible URL');
    await page.getByTestId('model-name').fill('Vectors');
    await page.getByTestId('model-id').fill('vectors');
    await page.getByTestId('model-base-url').fill(provider.openaiUrl);
    await page.getByTestId('model-kind').getByText('Embedding (for knowledge bases)').click();
    await page.getByTestId('model-list-fetch').click();
    await expect.poll(() => page.getByTestId('model-list-note').textContent()).toBe('The provider offers 2 models; you can also type one');
    expect(provider.requests.at(-1)!.path).toBe('/v1/models');
    await chooseOption(page, page.getByTestId('model-model'), 'embed-24d');
    expect(await page.getByTestId('model-model').inputValue()).toBe('embed-24d');
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'detached' });
    await screenshot(page, 'models-03c-pick-from-list');
    await page.getByTestId('model-save').click();
    await page.getByTestId('model-row-vectors').waitFor();
    expect(await page.getByTestId('model-row-vectors').textContent()).toContain('embedding');
    await page.getByTestId('model-test-vectors').click();
    const result = page.locator('[data-testid="model-test-result-vectors"][data-ok="true"]');
    await result.waitFor();
    expect(await result.textContent()).toMatch(/Embedded in \d+ ms: vectors of 24 numbers/);
    expect(provider.requests.at(-1)!.path).toBe('/v1/embeddings');
    await screenshot(page, 'models-03d-embedding-test');

    await page.getByTestId('nav-knowledge').click();
    await page.getByTestId('kb-add').click();
    await page.getByTestId('kb-form-model').click();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect.poll(() => options.allTextContents()).toEqual(['Words only (no embedding model)', 'Vectors (embed-24d)']);
    await screenshot(page, 'models-03e-knowledge-offers-embedding-only');
    await page.keyboard.press('Escape');
    await page.getByTestId('kb-form').getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('kb-form').waitFor({ state: 'hidden' });
    await page.getByTestId('nav-models').click();
    await page.getByTestId('page-models').waitFor();
    await api('models.remove', { id: 'vectors' });
    await page.getByTestId('model-row-vectors').waitFor({ state: 'detached' });
  });

  it('an agent naming the model keeps it (and its system prompt, its sub-agent levels) when edited on the Agents page', async () => {
    await api('agents.save', { agent: { id: 'helper', name: 'Helper', modelId: 'local', systemPrompt: 'Be brief.', subAgents: ['other'], subAgentPermissions: { other: 'read' } } });
    await page.getByTestId('nav-agents').click();
    await page.getByTestId('agent-edit-helper').click();
    // The description is under the form's Advanced section.
    await page.getByTestId('agent-section-advanced').click();
    await page.getByTestId('agent-description').fill('Answers with the local model');
    await page.getByTestId('agent-save').click();
    await page.getByTestId('agent-editor').waitFor({ state: 'hidden' });
    const helper = async () => (await api<{ agents: Record<string, unknown>[] }>('agents.list')).agents.find((a) => a.id === 'helper');
    expect(await helper()).toMatchObject({ description: 'Answers with the local model', modelId: 'local', systemPrompt: 'Be brief.', subAgents: ['other'], subAgentPermissions: { other: 'read' } });

    // A sub-agent whose calls ask first: the level is stored with the agent.
    await page.getByTestId('agent-edit-helper').click();
    await page.getByTestId('agent-sub-agent-confirm-other').click();
    await screenshot(page, 'models-03b-agent-sub-agent-confirm');
    await page.getByTestId('agent-save').click();
    await page.getByTestId('agent-editor').waitFor({ state: 'hidden' });
    expect((await helper())?.subAgentPermissions).toEqual({ other: 'confirm' });
    await page.getByTestId('nav-models').click();
    await page.getByTestId('page-models').waitFor();
  });

  it('shows in Chinese and in the dark theme', async () => {
    await page.getByTestId('locale-switch').click();
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.getByTestId('page-models').textContent()).toContain('模型');
    expect(await page.getByTestId('model-test-local').textContent()).toContain('测试');
    expect(await page.getByTestId('models-key-store').textContent()).toContain('只有你能读取的文件');
    await page.getByTestId('model-add').click();
    await page.getByTestId('model-form').waitFor();
    await chooseOption(page, page.getByTestId('model-preset'), 'Anthropic');
    expect(await page.getByTestId('model-base-url').inputValue()).toBe('https://api.anthropic.com');
    await screenshot(page, 'models-04-add-zh-dark');
    await page.keyboard.press('Escape');
    await page.getByTestId('model-editor').waitFor({ state: 'hidden' });
    await screenshot(page, 'models-05-list-zh-dark');
  });

  it('removes it with its stored key', async () => {
    await page.getByTestId('model-remove-local').click();
    await page.getByTestId('model-remove-ok').click();
    await page.getByTestId('model-row-local').waitFor({ state: 'detached' });
    expect((await api<{ models: unknown[] }>('models.list')).models).toEqual([]);
    expect(fs.readFileSync(path.join(home, 'chatos', 'secrets.json'), 'utf8')).not.toContain(KEY);
  });
});
