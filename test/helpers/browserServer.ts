import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS, checkChromium } from '../../scripts/chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The one Chromium of a browser-test run: each file connects and opens a fresh context of its own (helpers/browser.ts). */
    chromiumEndpoint: string;
  }
}

/**
 * vitest's globalSetup for the browser tests: one Chromium for the whole
 * run, instead of a start (~2 s, more on a busy machine) per file. Files
 * share nothing through it: each gets its own context, and so its own
 * cookies, storage and pages.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  checkChromium();
  const server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
