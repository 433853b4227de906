#!/usr/bin/env node
// `npm start` (after scripts/buildIfChanged.mjs): the desktop app where
// Electron's binary is present (fetched on first start where the network
// allows), otherwise the headless host, `chatos serve`, whose printed URL
// opens the same UI in a browser. Any arguments are passed on (`npm start --
// --port 0 --home DIR`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * How the `chatos` command starts Node, read from its first line (`#!/usr/bin/env -S NAME=value … node --flag …`):
 * the variables and V8 flags a long-running host needs (bin/chatos.js says why) apply only when the file runs as a
 * command, not when Node is given it as a script, as here.
 */
function commandStart(file) {
  const words = /^#!\/usr\/bin\/env (?:-S )?(.*)$/.exec(readFileSync(file, 'utf8').split('\n', 1)[0])?.[1]?.split(' ').filter(Boolean) ?? [];
  const node = words.indexOf('node');
  if (node < 0) return { env: {}, flags: [] };
  const env = Object.fromEntries(words.slice(0, node).flatMap((word) => (/^[A-Za-z_]\w*=/.test(word) ? [[word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]] : [])));
  return { env, flags: words.slice(node + 1) };
}

// Electron's own index.js downloads the binary when it is missing, so it is
// not required here: look for the binary the way it would, without side effects.
function electronBinary() {
  const dir = fileURLToPath(new URL('../node_modules/electron/', import.meta.url));
  const pathFile = `${dir}path.txt`;
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : undefined;
  const overridden = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = overridden ? `${overridden}/${name ?? 'electron'}` : name && `${dir}dist/${name}`;
  return binary && existsSync(binary) ? binary : undefined;
}

// A failed download is remembered (per Electron version), so a machine without the network does not wait for it on
// every start; `npm start -- --fetch-electron` tries again. The note lives in node_modules (CHATOS_CACHE_DIR elsewhere),
// never in the data home: it is about this checkout's packages.
const RETRY = '--fetch-electron';
const cacheDir = process.env.CHATOS_CACHE_DIR ?? path.join(root, 'node_modules', '.cache', 'chatos');
const failedFile = path.join(cacheDir, 'electron-download.json');

function electronVersion() {
  try {
    return JSON.parse(readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** Why the last download of this Electron version failed, if it did. */
function rememberedFailure(version) {
  try {
    const note = JSON.parse(readFileSync(failedFile, 'utf8'));
    return note.version === version && typeof note.reason === 'string' ? note.reason : undefined;
  } catch {
    return undefined;
  }
}

function tryFetchElectron(retry) {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return 'ELECTRON_SKIP_BINARY_DOWNLOAD is set';
  const version = electronVersion();
  const remembered = retry ? undefined : rememberedFailure(version);
  if (remembered) return `its download failed before (${remembered}); to try again: npm start -- ${RETRY}`;
  console.log('Electron binary not present; trying to download it once…');
  const result = spawnSync(process.execPath, [require.resolve('electron/install.js')], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 120_000 });
  if (result.status === 0) {
    rmSync(failedFile, { force: true });
    return undefined;
  }
  const reason = ((result.stderr ?? '').split('\n').find((line) => line.trim()) ?? (result.error ? String(result.error.message) : 'the download failed')).trim();
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(failedFile, `${JSON.stringify({ version, reason, at: new Date().toISOString() })}\n`);
  } catch {
    // Not remembered: the next start tries again, as before.
  }
  return `its download failed (${reason}); it will not be tried again on start: npm start -- ${RETRY} tries again`;
}

const args = process.argv.slice(2);
const retry = args.includes(RETRY);
let binary = electronBinary();
let whyNot;
if (!binary) {
  whyNot = tryFetchElectron(retry);
  binary = electronBinary();
}

// A Linux box without a display (SSH, a container) cannot show a window even with Electron present.
const noDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
const shell = new URL('../dist/electron/main.js', import.meta.url);
if (binary && existsSync(shell) && !noDisplay) {
  const result = spawnSync(binary, [root], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

console.log(
  binary && noDisplay
    ? 'There is no display here (neither DISPLAY nor WAYLAND_DISPLAY is set), so no window can open. Starting the headless host instead (chatos serve): open the URL it prints in a browser.\n'
    : binary
      ? 'The desktop shell is not built in this version; starting the headless host instead (chatos serve).\n'
      : `Electron is not available on this machine: ${whyNot ?? 'its binary is missing'}. Starting the headless host instead (chatos serve): open the URL it prints in a browser.\n`,
);
const chatosBin = fileURLToPath(new URL('../bin/chatos.js', import.meta.url));
const { env, flags } = commandStart(chatosBin);
const child = spawn(process.execPath, [...flags, chatosBin, 'serve', ...args.filter((arg) => arg !== RETRY)], { stdio: 'inherit', env: { ...process.env, ...env } });
// Ctrl+C reaches the server directly (same process group), and it shuts down
// cleanly; this wrapper only waits for it. A SIGTERM sent to the wrapper alone is passed on.
process.on('SIGINT', () => {});
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.exitCode === null && child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
