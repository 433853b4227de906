import { said } from './checkWords.js';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { DiagnosticCheck } from '../../shared/diagnostics.js';
import type { ServerPathSource } from '../runtime/loginShellPath.js';

/** The oldest Node ChatOS runs on (package.json `engines`). */
export const MIN_NODE = '24.11.0';

function atLeast(version: string, minimum: string): boolean {
  const a = version.replace(/^v/, '').split('.').map(Number);
  const b = minimum.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/** The app's version and the Node it runs on. */
export function appCheck(appVersion: string, nodeVersion: string, runtime: string): DiagnosticCheck {
  const facts = { app: appVersion, node: nodeVersion, runtime };
  if (atLeast(nodeVersion, MIN_NODE)) return { id: 'app', status: 'ok', summary: `ChatOS ${appVersion} on Node ${nodeVersion} (${runtime})`, facts, ...said('appOk', facts) };
  return {
    id: 'app',
    status: 'fail',
    summary: `ChatOS ${appVersion} runs on Node ${nodeVersion}, older than the ${MIN_NODE} it needs`,
    fix: `install Node ${MIN_NODE} or newer (or use the desktop app, which brings its own)`,
    facts,
    ...said('appOld', { ...facts, min: MIN_NODE }, 'installNode'),
  };
}

/** Where the `electron` package's binary is, when it is installed beside this checkout; undefined when it is not. */
export function installedElectronBinary(from: string = import.meta.url): string | undefined {
  try {
    const require = createRequire(from);
    const dir = path.dirname(require.resolve('electron/package.json'));
    const relative = fs.readFileSync(path.join(dir, 'path.txt'), 'utf8').trim();
    const binary = path.join(dir, 'dist', relative);
    return fs.statSync(binary).isFile() ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the desktop window can be had here: this is Electron, or its binary is installed. Never a failure: the CLI and `chatos serve` need none. */
export function electronCheck(runningElectron: string | undefined, binary: string | undefined): DiagnosticCheck {
  if (runningElectron)
    return { id: 'electron', status: 'ok', summary: `running in Electron ${runningElectron}`, facts: { electron: runningElectron }, ...said('electronRunning', { electron: runningElectron }) };
  if (binary) return { id: 'electron', status: 'ok', summary: `Electron's binary is installed: ${binary}`, facts: { binary }, ...said('electronBinary', { binary }) };
  return {
    id: 'electron',
    status: 'warn',
    summary: 'no Electron binary here: the desktop window cannot open from this install (the CLI and chatos serve work without it)',
    fix: "install the packaged desktop app, or `npm install` where Electron's binary can be downloaded; or use chatos serve and a browser",
    facts: {},
    ...said('electronNone', {}, 'installElectron'),
  };
}

/** The PATH servers get and where it came from. Empty, no program can be found by name. */
export function pathCheck(source: ServerPathSource): DiagnosticCheck {
  const facts: Record<string, string> = { path: source.path, source: source.kind };
  if (source.kind !== 'inherited') facts.shell = source.shell;
  if (source.path === '') {
    return {
      id: 'path',
      status: 'fail',
      summary: 'servers get an empty PATH: no command given by name (npx, uvx, python) can be found',
      fix: 'start ChatOS from a shell whose PATH is set, or give servers their commands by full path',
      facts,
      ...said('pathEmpty', {}, 'setPath'),
    };
  }
  if (source.kind === 'login-shell-failed') {
    return {
      id: 'path',
      status: 'warn',
      summary: `the login shell ${source.shell} did not give its PATH (${source.error}); servers get the PATH ChatOS was started with`,
      fix: `check that "${source.shell} -ilc env" works in a terminal without asking anything; until then start ChatOS from a terminal`,
      facts: { ...facts, error: source.error },
      ...said('pathShellFailed', { shell: source.shell, error: source.error }, 'checkShell'),
    };
  }
  const from = source.kind === 'login-shell' ? `the login shell's PATH (${source.shell})` : source.why;
  return {
    id: 'path',
    status: 'ok',
    summary: `servers get ${from}: ${source.path}`,
    facts,
    ...(source.kind === 'login-shell' ? said('pathFromShell', { shell: source.shell, path: source.path }) : said(source.reason === 'windows' ? 'pathWindows' : 'pathStarted', { path: source.path })),
  };
}
