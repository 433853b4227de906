import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); `.ci/run` installs it. Never a downloaded browser. */
export const CHROMIUM = process.env.CHATOS_CHROMIUM ?? '/usr/bin/chromium';

/** Headless, and quiet on a closed network: no background fetches, updates, sync or first-run pages. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function checkChromium(): void {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: run "apt-get update && apt-get install -y chromium" (.ci/run does)`);
}

/**
 * Headless Chromium with a fresh profile, deleted on close (playwright takes a
 * profile only as a persistent context). For the benchmarks, which measure a
 * browser of their own; the browser tests share one (test/helpers/browserServer.ts).
 */
export async function launchChromium(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  checkChromium();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
