#!/usr/bin/env node
// `npm start` (after scripts/buildIfChanged.mjs): the desktop app where
// Electron's binary is present (fetched on first start where the network
// allows), otherwise the headless host, `chatos serve`, whose printed URL
// opens the same UI in a browser. Any arguments are passed on (`npm start --
// --port 0 --home DIR`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));

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

function tryFetchElectron() {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return 'ELECTRON_SKIP_BINARY_DOWNLOAD is set';
  console.log('Electron binary not present; trying to download it once…');
  const result = spawnSync(process.execPath, [require.resolve('electron/install.js')], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 120_000 });
  if (result.status === 0) return undefined;
  const reason = (result.stderr ?? '').split('\n').find((line) => line.trim()) ?? 'the download failed';
  return `its download failed (${reason.trim()})`;
}

let binary = electronBinary();
let whyNot;
if (!binary) {
  whyNot = tryFetchElectron();
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
const child = spawn(process.execPath, [fileURLToPath(new URL('../bin/chatos.js', import.meta.url)), 'serve', ...process.argv.slice(2)], { stdio: 'inherit' });
// Ctrl+C reaches the server directly (same process group), and it shuts down
// cleanly; this wrapper only waits for it. A SIGTERM sent to the wrapper alone is passed on.
process.on('SIGINT', () => {});
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.exitCode === null && child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
