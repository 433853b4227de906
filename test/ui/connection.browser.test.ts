import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/gatewayHost.js';
import { launchChromium, startServe, type ServeProcess } from '../helpers/browser.js';

/**
 * The page when the host goes away: while `chatos serve` is down it says the
 * connection is lost and retries; when a new `chatos serve` (a new token)
 * answers on the same port, it stops retrying and says to open the new URL.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('losing the host', () => {
  it('shows that the connection is lost, then that the session ended once another host answers', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-conn-'));
    cleanups.push(async () => fs.rmSync(home, { recursive: true, force: true }));
    const port = String(await freePort());
    const first: ServeProcess = await startServe(['--home', home, '--no-watch', '--port', port]);
    const chromium = await launchChromium();
    cleanups.push(() => chromium.close());
    const page = await chromium.context.newPage();
    await page.goto(first.url);
    await page.getByTestId('page-apps').waitFor();
    expect(await page.getByTestId('connection-lost').count()).toBe(0);

    expect(await first.stop()).toBe(0);
    const banner = page.getByTestId('connection-lost');
    await banner.waitFor({ state: 'visible', timeout: 20_000 });
    expect(await banner.getAttribute('data-state')).not.toBe('ended');

    const second = await startServe(['--home', home, '--no-watch', '--port', port]);
    cleanups.push(() => second.stop());
    await expect.poll(() => banner.getAttribute('data-state'), { timeout: 30_000 }).toBe('ended');
    expect(await banner.textContent()).toContain('open the URL that chatos serve printed again');
  });
});
