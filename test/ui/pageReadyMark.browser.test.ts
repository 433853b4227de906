import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, serveApi, startServe, type ServeProcess } from '../helpers/browser.js';

/**
 * The page-ready mark (`html[data-page-ready]`, renderer/src/shell/pageReady.tsx)
 * on the window's first load, the moment every browser test waits for: set
 * once, for the Chat page, and only when the parts the page loads after its
 * own chunk (here the offer to make an assistant, which asks for models and
 * agents) are in. It used to be set for "/" before the redirect to the Chat
 * page, and set for "/chat" before that offer's code loaded, then taken away
 * while the offer asked its questions: a test's first click then landed on
 * a page still moving.
 */

let serve: ServeProcess;
let home: string;

beforeAll(async () => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-ready-'));
  serve = await startServe(['--home', home, '--no-watch'], { LANG: 'en_US.UTF-8' });
  // A model and no agent: the Chat page's welcome offers an assistant, from a part of its own.
  await serveApi(serve)('models.save', { model: { id: 'local', name: 'Local', api: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'test-model' }, apiKey: 'sk-ready-mark' });
});

afterAll(async () => {
  expect(await serve?.stop()).toBe(0);
  fs.rmSync(home, { recursive: true, force: true });
});

it('marks the first page ready once, for the Chat page, with the parts it loads after its own code already shown', async () => {
  const chromium = await launchChromium();
  try {
    const page = await chromium.context.newPage();
    // Every change of the mark as it happens, with whether the offer was on the page then.
    await page.addInitScript(() => {
      const marks: { ready: string | null; offer: boolean }[] = ((window as any).__marks = []);
      new MutationObserver(() => marks.push({ ready: document.documentElement.dataset.pageReady ?? null, offer: document.querySelector('[data-testid="ready-assistant"]') !== null })).observe(
        document,
        { attributes: true, attributeFilter: ['data-page-ready'], subtree: true },
      );
    });
    await page.goto(serve.url);
    // The offer's questions answered and shown: by then a mark set early would have been taken away.
    await page.getByTestId('ready-assistant-create').waitFor({ timeout: 20_000 });
    await page.locator('html[data-page-ready="/chat"]').waitFor({ state: 'attached' });
    expect(await page.evaluate(() => (window as any).__marks)).toEqual([{ ready: '/chat', offer: true }]);
  } finally {
    await chromium.close();
  }
});
