import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openChromiumOn, screenshot, screenshotOnFailure, startServe, type ServeProcess } from '../helpers/browser.js';
import { pdfWithText } from '../helpers/pdfFile.js';
import { startProviderServer, type ProviderServer } from '../helpers/providerServer.js';
import { runCli } from '../helpers/runCli.js';
// @ts-expect-error a plain ES module without types
import { solidPng } from '../../plugins/notes/mcp/pngSwatch.mjs';

/**
 * Attachments in the message box (docs/using/chat.md#attachments), in Chromium against a real
 * `chatos serve` and the local provider server: an image picked with the
 * paperclip's file input, one pasted from the clipboard and a PDF, shown as
 * chips, sent; the request the provider got carries both images and the
 * PDF's text; the sent message shows the thumbnails (that open) and the
 * document's chip. A 50 MB file dropped and a type the host cannot read
 * show why on their chips. Screenshots: test-output/screenshots/attach-*.
 */

const RED: Buffer = solidPng(48, [220, 40, 40]);
const GREEN: Buffer = solidPng(32, [40, 180, 80]);
const PDF = pdfWithText([['Trip plan', 'Day one: the lighthouse at dawn']]);

let provider: ProviderServer;
let serve: ServeProcess;
let chromium: Awaited<ReturnType<typeof openChromiumOn>>['chromium'];
let page: Page;
let home: string;

async function cli(args: string[], input?: string): Promise<void> {
  const run = await runCli([...args, '--home', home], input === undefined ? {} : { input });
  expect(run.code, `chatos ${args.join(' ')}: ${run.stderr}`).toBe(0);
}

/** A size as the chips write it. */
const sizeText = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);
const chips = () => page.getByTestId('attachment-chip');
const chipStates = () => chips().evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset.state));

beforeAll(async () => {
  provider = await startProviderServer({ shared: true });
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-attach-'));
  await cli(['models', 'add', 'local', '--api', 'openai', '--base-url', provider.openaiUrl, '--model', 'test-model', '--api-key-stdin', '--vision'], 'sk-attach\n');
  const file = path.join(home, 'helper.json');
  fs.writeFileSync(file, JSON.stringify({ id: 'helper', name: 'Helper', modelId: 'local', systemPrompt: 'Be brief.' }));
  await cli(['agents', 'create', '--file', file]);
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  ({ chromium, page } = await openChromiumOn(serve));
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('page-chat').waitFor({ timeout: 20_000 });
});

afterEach((context) => screenshotOnFailure(page, 'attach', context));

afterAll(async () => {
  await chromium?.close();
  expect(await serve?.stop()).toBe(0);
  await provider?.close();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

describe('attachments in the message box', { timeout: 180_000 }, () => {
  it('attaches a picked image, a pasted image and a PDF; sends them; the provider gets them and the message shows them', async () => {
    await page.getByTestId('chat-new-pane').waitFor();
    await page.getByTestId('chat-attach-input').setInputFiles([
      { name: 'red.png', mimeType: 'image/png', buffer: RED },
      { name: 'trip.pdf', mimeType: 'application/pdf', buffer: PDF },
    ]);
    // An image from the clipboard, as a paste event carries it (the browser names every one "image.png").
    await page.getByTestId('chat-input').evaluate((input, base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, GREEN.toString('base64'));
    await expect.poll(chipStates, { timeout: 30_000 }).toEqual(['ready', 'ready', 'ready']);
    const names = await chips().locator('.attachment-chip-name').allTextContents();
    expect(names.slice(0, 2)).toEqual(['red.png', 'trip.pdf']);
    expect(names[2]).toMatch(/^pasted-[\d-]+\.png$/);
    expect(await chips().nth(1).locator('.attachment-chip-size').textContent()).toBe(sizeText(PDF.length));
    await page.getByTestId('chat-input').fill('What is in these?');
    await screenshot(page, 'attach-01-chips-light-en');

    provider.enqueue({ kind: 'reply', text: 'A red square, a green one and a trip plan.' });
    await page.getByTestId('chat-input').press('Enter');
    await page.getByTestId('message-assistant').waitFor({ timeout: 30_000 });
    expect(await chips().count()).toBe(0);

    const user = (provider.requests[0]!.body.messages as { role: string; content: any }[]).filter((m) => m.role === 'user').at(-1)!;
    expect(user.content[0]).toEqual({ type: 'text', text: 'What is in these?' });
    expect(user.content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${RED.toString('base64')}` } });
    expect(user.content[2].text).toMatch(/^--- Attached file: trip\.pdf ---\nTrip plan\nDay one: the lighthouse at dawn\n--- End of trip\.pdf ---$/);
    expect(user.content[3]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${GREEN.toString('base64')}` } });

    const message = page.getByTestId('message-user');
    const thumbnails = message.getByTestId('message-attachment-image');
    // A message's attachments render with their own lazily loaded code, after the row itself: wait for them.
    await expect.poll(() => thumbnails.count()).toBe(2);
    // Each thumbnail loaded its image from the host, and opens it full size.
    await expect.poll(() => thumbnails.locator('img').evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth))).toEqual([48, 32]);
    const href = await thumbnails.first().getAttribute('href');
    expect(await thumbnails.first().getAttribute('target')).toBe('_blank');
    const opened = await page.evaluate(async (url) => {
      const response = await fetch(url!);
      return { status: response.status, type: response.headers.get('content-type'), size: (await response.arrayBuffer()).byteLength };
    }, href);
    expect(opened).toEqual({ status: 200, type: 'image/png', size: RED.length });
    const doc = message.getByTestId('message-attachment-document');
    await expect.poll(() => doc.textContent()).toContain('trip.pdf');
    expect(await doc.textContent()).toContain(sizeText(PDF.length));
    // The chip saves the original file as it was attached, under its name: the very bytes of the PDF.
    expect(await doc.getAttribute('download')).toBe('trip.pdf');
    const original = await page.evaluate(
      async (url) => {
        const response = await fetch(url!);
        return { status: response.status, type: response.headers.get('content-type'), bytes: [...new Uint8Array(await response.arrayBuffer())] };
      },
      await doc.getAttribute('href'),
    );
    expect({ ...original, bytes: Buffer.from(original.bytes).equals(PDF) }).toEqual({ status: 200, type: 'application/pdf', bytes: true });
    await screenshot(page, 'attach-02-sent-light-en');

    // Opened again (a reload), the message still shows them: they are kept with the conversation.
    await page.reload();
    await page.getByTestId('message-user').getByTestId('message-attachment-image').first().waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('message-user').getByTestId('message-attachment-image').count()).toBe(2);
  });

  it('shows on its chip why a 50 MB file dropped on the box and a type the host cannot read are not attached', async () => {
    await page.getByTestId('chat-composer').evaluate((composer) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(50 * 1024 * 1024)], 'huge-scan.pdf', { type: 'application/pdf' }));
      composer.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await page.getByTestId('chat-attach-input').setInputFiles([{ name: 'budget.xlsx', mimeType: 'application/vnd.ms-excel', buffer: Buffer.from('PK\u0003\u0004 a spreadsheet') }]);
    await expect.poll(chipStates, { timeout: 30_000 }).toEqual(['error', 'error']);
    const reasons = await page.getByTestId('attachment-error').allTextContents();
    expect(reasons[0]).toContain('Not attached: huge-scan.pdf is larger than 20 MB');
    expect(reasons[0]).toContain('attach a smaller file');
    expect(reasons[1]).toContain('budget.xlsx: a message can carry images (PNG, JPEG, GIF, WebP) and text, Markdown, HTML or PDF files');
    // Nothing to send: refused files are not attachments.
    expect(await page.getByTestId('chat-send').isDisabled()).toBe(true);
    await screenshot(page, 'attach-03-refused-light-en');

    await page.getByTestId('locale-switch').getByText('中文').click();
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.getByTestId('attachment-error').first().textContent()).toContain('无法附加');
    await screenshot(page, 'attach-04-refused-zh-dark');
    await page.getByTestId('locale-switch').getByText('EN').click();
    await expect.poll(() => page.getByTestId('attachment-error').first().textContent()).toContain('Not attached');
    await screenshot(page, 'attach-05-refused-en-dark');
    await page.getByTestId('locale-switch').getByText('中文').click();
    await page.getByTestId('theme-switch').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await screenshot(page, 'attach-06-refused-zh-light');

    await page.getByTestId('attachment-remove').first().click();
    await page.getByTestId('attachment-remove').first().click();
    expect(await chips().count()).toBe(0);
    await page.getByTestId('locale-switch').getByText('EN').click();
  });
});
