import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { mainWindowOptions } from '../../electron/windowOptions.js';
import { repoRoot } from '../helpers/tempDir.js';

/** docs/rules/security.md#the-window, key by key: a missing or flipped one fails here. */
const REQUIRED_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  spellcheck: false,
  disableBlinkFeatures: 'Auxclick',
} as const;

const electronDir = path.join(repoRoot, 'electron');
const RENDERER_CLASSES = /(^|\.)(BrowserWindow|BrowserView|WebContentsView)$/;

/**
 * Every `new X(…)` in electron/*.ts (or in `sources`, for the self-test)
 * whose class is a renderer-making one, found by parsing (comments and
 * strings cannot fool it). A class imported under another name counts too.
 */
function windowConstructions(sources?: Record<string, string>): { where: string; text: string }[] {
  const files =
    sources ??
    Object.fromEntries(
      fs
        .readdirSync(electronDir)
        .filter((n) => /\.c?ts$/.test(n))
        .map((n) => [n, fs.readFileSync(path.join(electronDir, n), 'utf8')]),
    );
  const found: { where: string; text: string }[] = [];
  for (const [name, text] of Object.entries(files)) {
    const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
    const aliases = new Set<string>();
    const visit = (node: ts.Node): void => {
      if (ts.isImportSpecifier(node) && RENDERER_CLASSES.test((node.propertyName ?? node.name).text)) aliases.add(node.name.text);
      if (ts.isNewExpression(node)) {
        const callee = node.expression.getText(source);
        if (RENDERER_CLASSES.test(callee) || aliases.has(callee)) found.push({ where: `${name}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`, text: node.getText(source) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('the main window options', () => {
  const options = mainWindowOptions('/app/dist/electron/preload.cjs');
  const prefs = options.webPreferences ?? {};

  for (const [key, value] of Object.entries(REQUIRED_WEB_PREFERENCES)) {
    it(`sets webPreferences.${key} to ${String(value)}`, () => {
      expect(Object.hasOwn(prefs, key), `${key} must be set explicitly, not left to a default`).toBe(true);
      expect(prefs[key as keyof typeof prefs]).toBe(value);
    });
  }

  it('loads the given preload and nothing that widens the renderer', () => {
    expect(prefs.preload).toBe('/app/dist/electron/preload.cjs');
    // Settings that would weaken the above if someone added them later.
    for (const risky of ['enableBlinkFeatures', 'additionalArguments', 'partition', 'session', 'devTools'] as const) {
      expect(Object.hasOwn(prefs, risky), `${risky} is not expected in the main window`).toBe(false);
    }
    expect(options.show).toBe(false);
  });

  it('builds every BrowserWindow in electron/ from mainWindowOptions', () => {
    const constructions = windowConstructions();
    expect(constructions.map((c) => c.where).join(', '), 'main.ts opens the window').toMatch(/main\.ts/);
    for (const { where, text } of constructions) {
      expect(text, where).toMatch(/^new BrowserWindow\(mainWindowOptions\([^()]*\)\)$/);
    }
  });

  it('would notice a window built any other way', () => {
    const found = windowConstructions({
      'sneaky.ts':
        "import { BrowserWindow as W } from 'electron';\nnew W({ webPreferences: { sandbox: false } });\nconst e = require('electron');\nnew e.BrowserView({});\n// new BrowserWindow( in a comment is not a window\n",
    });
    expect(found.map((c) => c.text)).toEqual(['new W({ webPreferences: { sandbox: false } })', 'new e.BrowserView({})']);
  });
});
