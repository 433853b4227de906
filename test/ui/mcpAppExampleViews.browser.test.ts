import * as path from 'node:path';
import { expect } from 'vitest';
import { describeExamples, textOnce } from '../helpers/mcpAppExamples.js';
import { pdfWithText } from '../helpers/pdfFile.js';

/**
 * The official MCP Apps examples that draw: charts (Chart.js, a React
 * heatmap), a view that polls a tool for the app alone, three.js and a
 * WebGL 2 shader (eval, the GPU in a sandboxed frame), a PDF (PDF.js,
 * the file's bytes read through the gateway), sheet music (SVG, Web Audio)
 * (test/helpers/mcpAppExamples.ts runs them). The examples that
 * show one answer in each framework are in mcpAppExamples.browser.test.ts.
 */

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The shader's one colour, as the model sends it and as RGBA bytes (1.0 = 255, 0.6 = 153, 0.2 = 51). */
const SHADER_COLOUR = { glsl: 'vec4(1.0, 0.6, 0.2, 1.0)', rgba: [255, 153, 51, 255] };

/**
 * The RGBA of the middle pixel of a WebGL canvas, copied in the frame the
 * view drew it (the drawing buffer is not kept after it is shown), through
 * a canvas of the test's own: the view's canvas is only read.
 */
function middlePixel(canvas: HTMLCanvasElement): Promise<number[]> {
  return new Promise((resolve) =>
    requestAnimationFrame(() => {
      const copy = document.createElement('canvas');
      copy.width = copy.height = 1;
      const context = copy.getContext('2d')!;
      context.drawImage(canvas, Math.floor(canvas.width / 2), Math.floor(canvas.height / 2), 1, 1, 0, 0, 1, 1);
      resolve([...context.getImageData(0, 0, 1, 1).data]);
    }),
  );
}

describeExamples('the official MCP Apps examples that draw, inline and beside the chat', [
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
    id: 'three',
    pkg: '@modelcontextprotocol/server-threejs',
    tool: 'show_threejs_scene',
    // The scene is code the view evaluates (new Function): it marks its canvas so the test can see it ran.
    args: {
      code: [
        'const scene = new THREE.Scene();',
        'const camera = new THREE.PerspectiveCamera(75, width / height, 0.1, 100);',
        'camera.position.z = 3;',
        'const renderer = new THREE.WebGLRenderer({ canvas, antialias: true });',
        'renderer.setSize(width, height, false);',
        'scene.add(new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), new THREE.MeshNormalMaterial()));',
        'renderer.render(scene, camera);',
        "canvas.dataset.scene = 'a cube of ' + scene.children.length + ' mesh';",
      ].join('\n'),
      height: 300,
    },
    async shown(view) {
      await expect
        .poll(
          async () =>
            view
              .locator('canvas[data-scene]')
              .getAttribute('data-scene', { timeout: 5_000 })
              .catch(() => null),
          { timeout: 60_000 },
        )
        .toBe('a cube of 1 mesh');
      return 'a cube of 1 mesh';
    },
    // It calls nothing back on its server (the scene's code gets three.js and its canvas only): the scene stays drawn.
    async interact(view) {
      await view.locator('canvas[data-scene]').waitFor({ timeout: 10_000 });
    },
  },
  {
    id: 'shader',
    pkg: '@modelcontextprotocol/server-shadertoy',
    tool: 'render-shadertoy',
    // One colour over the whole canvas, so the pixel read back says the shader the model sent compiled and ran.
    args: { fragmentShader: `void mainImage(out vec4 fragColor, in vec2 fragCoord) {\n  fragColor = ${SHADER_COLOUR.glsl};\n}` },
    async shown(view) {
      const canvas = view.locator('#canvas');
      await expect.poll(async () => canvas.evaluate(middlePixel, undefined, { timeout: 5_000 }).catch(() => []), { timeout: 60_000 }).toEqual(SHADER_COLOUR.rgba);
      return SHADER_COLOUR.rgba.join(',');
    },
    // Its one control asks for fullscreen, which ChatOS does not offer (it shows the button only to a host that does): the shader keeps drawing.
    async interact(view) {
      await expect
        .poll(async () =>
          view
            .locator('#canvas')
            .evaluate(middlePixel, undefined, { timeout: 5_000 })
            .catch(() => []),
        )
        .toEqual(SHADER_COLOUR.rgba);
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
  {
    id: 'pdf',
    pkg: '@modelcontextprotocol/server-pdf',
    tool: 'display_pdf',
    // A file on this machine, which the server is started with (so it may read it): PDF.js in the view draws it.
    files: { 'two.pdf': pdfWithText([['ChatOS page one'], ['ChatOS page two']]) },
    serverArgs: (dir) => [path.join(dir, 'two.pdf')],
    args: (dir) => ({ url: path.join(dir, 'two.pdf') }),
    // The view reads the file's bytes through the gateway (read_pdf_bytes, a tool for the app alone) and shows its first page.
    async shown(view, stored) {
      expect((stored.structured as { totalBytes: number }).totalBytes).toBeGreaterThan(0);
      await textOnce(view.locator('#total-pages'), /of 2/, 60_000);
      return textOnce(view.locator('#text-layer'), /ChatOS page one/, 60_000);
    },
    async interact(view, calls) {
      await expect.poll(() => calls('read_pdf_bytes')).toBeGreaterThanOrEqual(1);
      await view.locator('#next-btn').click();
      await textOnce(view.locator('#text-layer'), /ChatOS page two/);
    },
  },
  {
    id: 'music',
    pkg: '@modelcontextprotocol/server-sheet-music',
    tool: 'play-sheet-music',
    // The score is the tool's input: its title and eight notes are drawn.
    args: { abcNotation: 'X:1\nT:ChatOS Scale\nM:4/4\nL:1/4\nK:C\nC D E F | G A B c |' },
    async shown(view) {
      await textOnce(view.locator('#status'), /^Ready to play!$/);
      const title = await textOnce(view.locator('#sheet-music .abcjs-title'), /^ChatOS Scale$/);
      const notes = await view.locator('#sheet-music .abcjs-note').count();
      expect(notes).toBe(8);
      return `${title}: ${notes} notes`;
    },
    // Play fetches its instrument's sounds from the internet; Loop is the player's own.
    async interact(view) {
      const loop = view.locator('.abcjs-midi-loop');
      await loop.click();
      await expect.poll(async () => loop.getAttribute('class')).toContain('abcjs-pushed');
    },
  },
]);
