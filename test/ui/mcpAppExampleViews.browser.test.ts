import * as path from 'node:path';
import { expect } from 'vitest';
import { describeExamples, textOnce } from '../helpers/mcpAppExamples.js';
import { pdfWithText } from '../helpers/pdfFile.js';

/**
 * The official MCP Apps examples that draw: three.js and a WebGL 2 shader
 * (eval, the GPU in a sandboxed frame), a PDF (PDF.js, the file's bytes
 * read through the gateway), sheet music (SVG, Web Audio)
 * (test/helpers/mcpAppExamples.ts runs them). The examples that chart data
 * are in mcpAppExampleCharts.browser.test.ts (a file of its own, so two
 * workers share the examples); those that show one answer in each framework
 * in mcpAppExamples.browser.test.ts.
 */

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

describeExamples('the official MCP Apps examples that draw with WebGL, PDF.js and SVG, inline and beside the chat', [
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
