import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppProtocolHandler } from '../../electron/appProtocol.js';
import { APP_ORIGIN, ARTIFACT_CSP } from '../../electron/appUrls.js';
import { uiAppShellCsp } from '../../src/pageHost/uiAppFiles.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';
import { builtElectronDir, builtElectronFile } from './builtElectron.js';

/**
 * Electronegativity (Doyensec's Electron security scanner) over the compiled
 * main process and preload, the files Electron runs.
 *
 * Excluded, and why (the only exclusion):
 *  - CSP_GLOBAL_CHECK (class CSPGlobalCheck; exclusions are named by class): it finds a CSP only in `<meta>` tags or in
 *    `webRequest.onHeadersReceived` code. Ours is a header of every
 *    `protocol.handle` response, which it does not model, so it always
 *    reports "no CSP". In its place the test below runs the same CSP
 *    evaluator electronegativity uses (@doyensec/csp-evaluator) on the
 *    headers the handlers really send.
 * Inline `eng-disable` comments are allowed on one line only (checked below).
 */
const EXCLUDED_CHECKS = ['CSPGlobalCheck'];
const ALLOWED_INLINE_DISABLES = [
  // The only openExternal: its url has passed isBrowserUrl (http(s) only, tested in browserUrl.test.ts) on the line above.
  'void shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK',
  'new BrowserWindow(mainWindowOptions(layout.preloadPath)); // eng-disable CONTEXT_ISOLATION_JS_CHECK SANDBOX_JS_CHECK AUXCLICK_JS_CHECK',
];
/** Its parser reads only these extensions: a `.cjs` (the preload) would be skipped without a word. */
const PARSED_EXTENSIONS = new Set(['.js', '.jsx', '.ts', '.tsx', '.html', '.htm', '.json']);

interface Issue {
  id: string;
  file: string;
  line: number;
  column: number;
  severity: 'HIGH' | 'MEDIUM' | 'LOW' | 'INFORMATIONAL';
  confidence: string;
  description: string;
}
interface ScanResult {
  checks: number;
  errors: { file: string; message: string; tolerable: boolean }[];
  issues: Issue[];
}

const electronegativityRequire = createRequire(createRequire(import.meta.url).resolve('@doyensec/electronegativity/package.json'));
const electronVersion = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Copies the compiled shell to `<dir>/app` (`.cjs`/`.mjs` renamed `.js`, so
 * every file is parsed; source maps left out) with package.json, and writes
 * `<dir>/canary/`, a window with Node in it, which the scan must flag:
 * proof that the checks ran, not just that nothing was found.
 */
function stage(dir: string): string[] {
  const app = path.join(dir, 'app');
  fs.mkdirSync(app, { recursive: true });
  const staged: string[] = [];
  for (const name of fs.readdirSync(builtElectronDir)) {
    if (!/\.(c|m)?js$/.test(name)) continue;
    const target = name.replace(/\.(c|m)js$/, '.js');
    fs.copyFileSync(path.join(builtElectronDir, name), path.join(app, target));
    staged.push(target);
  }
  fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(app, 'package.json'));
  fs.mkdirSync(path.join(dir, 'canary'));
  fs.writeFileSync(
    path.join(dir, 'canary', 'insecureWindow.js'),
    "const { BrowserWindow } = require('electron');\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n",
  );
  return staged;
}

function scan(input: string): ScanResult {
  const run = spawnSync(process.execPath, [path.join(import.meta.dirname, 'electronegativityScan.cjs'), input, electronVersion, EXCLUDED_CHECKS.join(',')], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`electronegativity failed (exit ${run.status}): ${run.stderr}`);
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as ScanResult;
}

const describeIssue = (i: Issue) => `${i.severity} ${i.id} at ${i.file}:${i.line}:${i.column} (${i.confidence}): ${i.description}`;

describe('electronegativity on dist/electron', () => {
  let staged: string[] = [];
  let result: ScanResult;
  let input: string;

  beforeAll(() => {
    builtElectronFile('main.js');
    builtElectronFile('preload.cjs');
    // Not tempDir(): that one is removed after each test, and this scan serves them all.
    input = fs.mkdtempSync(path.join(os.tmpdir(), 'chatos-el-scan-'));
    staged = stage(input);
    result = scan(input);
  }, 300_000);

  afterAll(() => fs.rmSync(input, { recursive: true, force: true }));

  it('scans every compiled file, the preload included, and parses them all', () => {
    expect(staged).toEqual(expect.arrayContaining(['main.js', 'preload.js', 'ipcHandler.js', 'windowOptions.js']));
    for (const name of fs.readdirSync(path.join(input, 'app'))) expect(PARSED_EXTENSIONS.has(path.extname(name)), name).toBe(true);
    expect(result.errors.map((e) => `${e.file}: ${e.message}${e.tolerable ? ' (tolerated)' : ''}`)).toEqual([]);
    expect(result.checks).toBeGreaterThan(30);
  });

  it('flags the canary window, so a clean result means something', () => {
    const canary = result.issues.filter((i) => i.file.startsWith('canary'));
    expect(canary.map((i) => `${i.id} ${i.severity}`)).toEqual(expect.arrayContaining(['CONTEXT_ISOLATION_JS_CHECK HIGH', 'SANDBOX_JS_CHECK MEDIUM', 'AUXCLICK_JS_CHECK MEDIUM']));
  });

  it('reports no HIGH or MEDIUM issue in the app', () => {
    const serious = result.issues.filter((i) => !i.file.startsWith('canary') && (i.severity === 'HIGH' || i.severity === 'MEDIUM'));
    expect(serious.map(describeIssue)).toEqual([]);
  });

  it('is silenced inline only where the test allows it', () => {
    const disables: string[] = [];
    for (const name of fs.readdirSync(path.join(input, 'app'))) {
      const lines = fs.readFileSync(path.join(input, 'app', name), 'utf8').split('\n');
      for (const line of lines) if (/eng-disable/.test(line)) disables.push(line.trim());
      // A directive on the first line disables a check for the whole file.
      expect(lines[0] ?? '', `${name} line 1`).not.toMatch(/eng-disable/);
    }
    expect(disables.map((line) => line.replace(/^const window = /, ''))).toEqual(ALLOWED_INLINE_DISABLES);
  });
});

describe('the CSPs the desktop face sends (in place of CSP_GLOBAL_CHECK)', () => {
  type Finding = { severity: number; directive: string; value?: string; description: string };
  const csp = electronegativityRequire('@doyensec/csp-evaluator') as {
    CspParser: new (text: string) => { csp: unknown };
    CspEvaluator: new (csp: unknown, version: unknown) => { evaluate(): Finding[] };
    Version: { CSP3: unknown };
    severities: Record<string, number>;
  };
  const evaluate = (text: string) => new csp.CspEvaluator(new csp.CspParser(text).csp, csp.Version.CSP3).evaluate();
  // HIGH, SYNTAX, MEDIUM and HIGH_MAYBE fail. MEDIUM_MAYBE is the evaluator's note that 'self' is weak on an
  // origin that also hosts user content or JSONP; chatos://app serves only the built renderer (artifacts live on
  // chatos://artifacts, pages on chatos-app://), so it is allowed, and only for script-src 'self'.
  const failing = (findings: Finding[]) =>
    findings.filter((f) => f.severity <= csp.severities.HIGH_MAYBE! && !(f.severity === csp.severities.MEDIUM_MAYBE && f.directive === 'script-src' && f.value === "'self'"));

  it('the renderer CSP, as a real chatos://app response carries it', async () => {
    const rendererDir = tempDir();
    fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html>');
    const response = await createAppProtocolHandler({ rendererDir, artifactsDir: tempDir() })(new Request('chatos://app/'));
    const header = response.headers.get('content-security-policy') ?? '';
    expect(header).toMatch(/script-src 'self'/);
    expect(failing(evaluate(header)).map((f) => `${f.directive}: ${f.description}`)).toEqual([]);
  });

  it('the artifact and UI-app frame CSPs', () => {
    for (const header of [ARTIFACT_CSP, uiAppShellCsp({ baseUrl: 'chatos-app://6163/', hostOrigin: APP_ORIGIN })]) {
      expect(
        evaluate(header).map((f) => `${f.directive}: ${f.description}`),
        header,
      ).toEqual([]);
    }
  });

  it('would fail a weak CSP', () => {
    expect(failing(evaluate("script-src 'self' 'unsafe-inline' https:")).length).toBeGreaterThan(0);
  });
});
