import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/freePort.js';
import { launchChromium, startServe, type ServeProcess } from '../helpers/browser.js';

/**
 * The page when the host goes away: while `chatos serve` is down it says the
 * connection is lost, retries, and says to start chatos serve again if it
 * stays. The token is kept per data home, so a restarted server takes the
 * tab back; one started with --new-token refuses it, and the page stops
 * retrying and says how to print the new URL.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('losing the host', () => {
  it('shows that the connection is lost, reconnects to a restarted host, and says the session ended once the token was replaced', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-ui-conn-'));
    cleanups.push(async () => fs.rmSync(home, { recursive: true, force: true }));
    const port = String(await freePort());
    const first: ServeProcess = await startServe(['--home', home, '--no-watch', '--port', port]);
    const chromium = await launchChromium();
    cleanups.push(() => chromium.close());
    const page = await chromium.context.newPage();
    await page.goto(first.url);
    await page.getByTestId('page-chat').waitFor();
    expect(await page.getByTestId('connection-lost').count()).toBe(0);

    expect(await first.stop()).toBe(0);
    const banner = page.getByTestId('connection-lost');
    await banner.waitFor({ state: 'visible', timeout: 20_000 });
    expect(await banner.getAttribute('data-state')).not.toBe('ended');
    expect(await banner.textContent()).toContain('If this stays, chatos serve may have stopped: start it again (npx chatos serve)');

    // The same data home's token: the open tab is let in again, with no new URL.
    const second = await startServe(['--home', home, '--no-watch', '--port', port]);
    expect(second.token).toBe(first.token);
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await second.stop()).toBe(0);

    const third = await startServe(['--home', home, '--no-watch', '--port', port, '--new-token']);
    cleanups.push(() => third.stop());
    expect(third.token).not.toBe(first.token);
    await expect.poll(() => page.getByTestId('connection-lost').getAttribute('data-state'), { timeout: 30_000 }).toBe('ended');
    const ended = await page.getByTestId('connection-lost').textContent();
    expect(ended).toContain('open the URL that chatos serve printed again');
    expect(ended).toContain('npx chatos serve --print-url');
  });
});
