import type { FrameLocator } from 'playwright-core';
import { expect } from 'vitest';
import { describeExamples, textOnce, type Example } from '../helpers/mcpAppExamples.js';

/**
 * The official MCP Apps examples that show one server's answer in each UI
 * framework (plain script, Vue, which touches `window.parent`, React,
 * Preact, Solid, Svelte), and the SDK's debug app, which uses every call a
 * view can make (test/helpers/mcpAppExamples.ts runs them). The examples
 * with charts are in mcpAppExampleCharts.browser.test.ts, those with
 * graphics in mcpAppExampleViews.browser.test.ts.
 */

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Where each basic example shows the time: `<p><strong>Server Time:</strong> <code>…</code></p>`, whatever its framework. */
const serverTime = (view: FrameLocator) => view.locator('p', { hasText: 'Server Time:' }).locator('code');

/** A basic example: the time the tool returned; its button calls get-time again through the gateway. */
function timeExample(id: string, framework: string): Example {
  return {
    id,
    pkg: `@modelcontextprotocol/server-basic-${framework}`,
    tool: 'get-time',
    args: {},
    async shown(view, stored) {
      const time = await textOnce(serverTime(view), ISO_TIME);
      expect(time).toBe(stored.text.trim());
      return time;
    },
    async interact(view, calls) {
      const before = await textOnce(serverTime(view), ISO_TIME);
      await view.getByRole('button', { name: 'Get Server Time' }).press('Enter');
      await expect.poll(async () => (await serverTime(view).textContent())?.trim(), { timeout: 30_000 }).not.toBe(before);
      expect(await serverTime(view).textContent()).toMatch(ISO_TIME);
      expect(await calls('get-time')).toBe(2);
    },
  };
}

/** The debug app's log entry of `type` (the newest), its payload written out in full. */
const logged = (view: FrameLocator, type: string) =>
  view
    .locator('.log-entry', { has: view.locator(`.log-type.${type}`) })
    .last()
    .locator('.log-payload-full');

describeExamples('the official MCP Apps examples in each framework, inline and beside the chat', [
  timeExample('vanilla', 'vanillajs'),
  timeExample('vue', 'vue'),
  timeExample('react', 'react'),
  timeExample('preact', 'preact'),
  timeExample('solid', 'solid'),
  timeExample('svelte', 'svelte'),
  {
    id: 'debug',
    pkg: '@modelcontextprotocol/server-debug',
    tool: 'debug-tool',
    args: {},
    // It logs each event to a file, /tmp/mcp-apps-debug-server.log unless told another.
    serverArgs: (dir) => [`--log-file=${dir}/debug.log`],
    // Its log writes out the result it was given: the timestamp and counter the server put in it.
    async shown(view, stored) {
      const { timestamp, counter } = stored.structured as { timestamp: string; counter: number };
      const payload = await textOnce(logged(view, 'ontoolresult'), new RegExp(`"timestamp": "${timestamp}"`));
      expect(payload).toContain(`"counter": ${counter}`);
      expect(payload).toContain('Debug text content #1');
      // The host context it lists: the host's name and the user's time zone (the one the view's own clock has).
      const context = view.locator('#host-context-info');
      await textOnce(context, /ChatOS v1/);
      const zone = await context.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      expect(await context.locator('dt:text-is("TimeZone") + dd').textContent()).toBe(zone);
      return timestamp;
    },
    // "Call debug-refresh" calls a tool for the app alone through the gateway: its answer is in the log.
    async interact(view, calls) {
      await view.getByRole('button', { name: 'Call debug-refresh' }).press('Enter');
      await textOnce(logged(view, 'server-tool-result'), /"counter": \d+/);
      await expect.poll(() => calls('debug-refresh')).toBe(1);
    },
  },
]);
