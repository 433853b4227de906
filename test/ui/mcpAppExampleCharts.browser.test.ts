import { expect } from 'vitest';
import { describeExamples, textOnce } from '../helpers/mcpAppExamples.js';

/**
 * The official MCP Apps examples that chart data: a budget (Chart.js), a
 * view that polls a tool for the app alone, a React heatmap and a
 * segmentation that ask their server for the data themselves, a scenario
 * modeler (test/helpers/mcpAppExamples.ts runs them). The examples that
 * draw with WebGL, PDF.js and SVG are in mcpAppExampleViews.browser.test.ts;
 * those that show one answer in each framework in mcpAppExamples.browser.test.ts.
 */

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describeExamples('the official MCP Apps examples that chart data, inline and beside the chat', [
  {
    id: 'budget',
    pkg: '@modelcontextprotocol/server-budget-allocator',
    tool: 'get-budget-data',
    args: {},
    // Its text says the budget and categories; the view draws them from the result's structuredContent.
    async shown(view, stored) {
      const total = /Default Budget: (\$[\d,]+)/.exec(stored.text)![1]!;
      const categories = [...stored.text.matchAll(/^ {2}- (.+): \d+% default$/gm)].map((match) => match[1]!);
      expect(categories.length).toBeGreaterThanOrEqual(3);
      const status = await textOnce(view.locator('#status-bar'), new RegExp(`/ \\${total}`));
      for (const category of categories) await view.getByText(category, { exact: true }).first().waitFor({ timeout: 10_000 });
      await textOnce(view.locator('#comparison-summary'), /^(?!Loading)\S/);
      return status;
    },
    // Its interactions are its own (no call to its server): the budget picked is what it allocates.
    async interact(view) {
      await view.locator('#budget-selector').selectOption('250000');
      await textOnce(view.locator('#status-bar'), /\/ \$250,000/);
    },
  },
  {
    id: 'monitor',
    pkg: '@modelcontextprotocol/server-system-monitor',
    tool: 'get-system-info',
    args: {},
    async shown(view, stored) {
      const info = JSON.parse(stored.text) as { hostname: string };
      return textOnce(view.locator('#info-hostname'), new RegExp(`^${escaped(info.hostname)}$`));
    },
    // Start polls poll-system-stats, a tool for the app alone, through the gateway: the memory figure appears.
    async interact(view, calls) {
      await view.locator('#poll-toggle-btn').click();
      await textOnce(view.locator('#memory-percent'), /^\d+(\.\d+)?%$/);
      expect(await calls('poll-system-stats')).toBeGreaterThanOrEqual(1);
      await view.locator('#poll-toggle-btn').click();
    },
  },
  {
    id: 'cohort',
    pkg: '@modelcontextprotocol/server-cohort-heatmap',
    tool: 'get-cohort-data',
    args: {},
    // The view asks its server for the data itself (the same defaults the model used): the cohorts (one per signup month) are the ones the result named.
    async shown(view, stored) {
      const labels = (stored.structured as { cohorts: { cohortLabel: string }[] }).cohorts.map((cohort) => cohort.cohortLabel);
      expect(labels.length).toBe(12);
      const names = view.locator('[class*="cohortName"]');
      await expect.poll(async () => names.allTextContents(), { timeout: 30_000 }).toEqual(labels);
      return labels.join(', ');
    },
    // Another metric is another call to get-cohort-data through the gateway, and the heatmap again.
    async interact(view, calls, stored) {
      const before = await calls('get-cohort-data');
      await view.locator('select').first().selectOption('revenue');
      await expect.poll(() => calls('get-cohort-data'), { timeout: 30_000 }).toBe(before + 1);
      const labels = (stored.structured as { cohorts: { cohortLabel: string }[] }).cohorts.map((cohort) => cohort.cohortLabel);
      await expect.poll(async () => view.locator('[class*="cohortName"]').allTextContents(), { timeout: 30_000 }).toEqual(labels);
    },
  },
  {
    id: 'customers',
    pkg: '@modelcontextprotocol/server-customer-segmentation',
    tool: 'get-customer-data',
    args: {},
    // The view asks its server for the customers itself; the server keeps one set, so the legend counts the result's segments.
    async shown(view, stored) {
      const segments = (stored.structured as { segments: { name: string; count: number }[] }).segments.map((segment) => `${segment.name} (${segment.count})`);
      expect(segments.length).toBe(4);
      const legend = view.locator('#legend .legend-item');
      await expect.poll(async () => (await legend.allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim()), { timeout: 30_000 }).toEqual(segments);
      return segments.join(', ');
    },
    // Its data came through the gateway (the model's call and the view's); a segment clicked in the legend is hidden.
    async interact(view, calls, stored) {
      await expect.poll(() => calls('get-customer-data')).toBe(2);
      const first = (stored.structured as { segments: { name: string }[] }).segments[0]!.name;
      const item = view.locator(`#legend .legend-item[data-segment="${first}"]`);
      await item.click();
      await expect.poll(async () => item.getAttribute('class')).toContain('hidden');
    },
  },
  {
    id: 'scenario',
    pkg: '@modelcontextprotocol/server-scenario-modeler',
    tool: 'get-scenario-data',
    args: {},
    // The templates the result holds are the ones to compare to.
    async shown(view, stored) {
      const templates = (stored.structured as { templates: { icon: string; name: string }[] }).templates.map((template) => `${template.icon} ${template.name}`);
      expect(templates.length).toBeGreaterThanOrEqual(3);
      const options = view.locator('select.template-select option:not([value=""])');
      await expect.poll(async () => options.allTextContents(), { timeout: 30_000 }).toEqual(templates);
      return templates.join(', ');
    },
    // A template picked and loaded: its starting MRR, from the result, is the one the model now runs with.
    async interact(view, _calls, stored) {
      const slider = view.locator('input.slider-input').first();
      const current = Number(await slider.inputValue());
      const templates = (stored.structured as { templates: { id: string; name: string; parameters: { startingMRR: number } }[] }).templates;
      const template = templates.find((candidate) => candidate.parameters.startingMRR !== current)!;
      await view.locator('select.template-select').selectOption(template.id);
      await view.getByRole('heading', { name: `vs. ${template.name}` }).waitFor({ timeout: 10_000 });
      await view.getByRole('button', { name: 'Load' }).click();
      await expect.poll(async () => slider.inputValue()).toBe(String(template.parameters.startingMRR));
    },
  },
]);
