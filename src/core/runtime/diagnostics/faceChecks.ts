import { said } from './checkWords.js';
import * as net from 'node:net';
import type { DiagnosticCheck } from '../../../shared/diagnostics.js';
import { findCommand } from '../../mcp/process/commandPath.js';

/** Whether `chatos serve` could listen on its port (loopback, as it does). */
export function headlessPortCheck(port: number, host = '127.0.0.1'): Promise<DiagnosticCheck> {
  const facts = { port: String(port), host };
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        resolve({
          id: 'headless-port',
          status: 'warn',
          summary: `port ${port} is in use: by a running chatos serve, or by another program`,
          fix: `if it is not your chatos serve, start it on another port: chatos serve --port <n> (0 = any free port)`,
          facts,
          ...said('portInUse', { port: String(port) }, 'otherPortIfNotYours'),
        });
      } else {
        resolve({
          id: 'headless-port',
          status: 'fail',
          summary: `chatos serve cannot listen on ${host}:${port} (${error.code ?? error.message})`,
          fix: 'start it with another port: chatos serve --port <n> (0 = any free port)',
          facts,
          ...said('portRefused', { host, port: String(port), error: error.code ?? error.message }, 'otherPort'),
        });
      }
    });
    server.listen({ port, host, exclusive: true }, () => {
      server.close(() => resolve({ id: 'headless-port', status: 'ok', summary: `chatos serve can listen on ${host}:${port}`, facts, ...said('portOk', { host, port: String(port) }) }));
    });
  });
}

/** Browsers a Linux desktop may have, by the names their packages install. */
const LINUX_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'firefox', 'xdg-open'];

export interface UiFacts {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** Electron runs this process, or its binary is installed. */
  electron: boolean;
}

/**
 * Whether the UI can be shown here: in Electron's window, or in a browser
 * opened on `chatos serve`'s url. A Linux machine without a display shows
 * nothing locally: its UI is opened from another machine over SSH.
 */
export function uiCheck({ platform, env, electron }: UiFacts): DiagnosticCheck {
  const ssh = 'run chatos serve here and open it from your own machine over an SSH tunnel (docs/using/serve.md#over-ssh)';
  if (platform === 'linux') {
    const display = env.WAYLAND_DISPLAY || env.DISPLAY;
    const browser = LINUX_BROWSERS.map((name) => findCommand(name, env.PATH)).find((found) => found.found);
    const facts: Record<string, string> = { display: display ?? '', electron: String(electron), browser: browser?.found ? browser.file : '' };
    if (!electron && !browser) {
      return {
        id: 'ui',
        status: 'fail',
        summary: 'neither Electron nor a browser is here: nothing on this machine can show the UI',
        fix: `install a browser (e.g. chromium) or the desktop app; or ${ssh}`,
        facts,
        ...said('uiNothing', {}, 'installBrowser'),
      };
    }
    if (!display) return { id: 'ui', status: 'warn', summary: 'no display (DISPLAY and WAYLAND_DISPLAY are unset): no window can open here', fix: ssh, facts, ...said('uiNoDisplay', {}, 'overSsh') };
    return {
      id: 'ui',
      status: 'ok',
      summary: electron ? `Electron can open its window on display ${display}` : `${browser!.found ? browser!.file : 'a browser'} can show chatos serve's url on display ${display}`,
      facts,
      ...(electron ? said('uiElectronOn', { display }) : said('uiBrowserOn', { browser: browser!.found ? browser!.file : '', display })),
    };
  }
  // macOS and Windows always have a browser and a display for a logged-in user.
  return {
    id: 'ui',
    status: 'ok',
    summary: electron ? 'Electron can open its window' : "the system browser can show chatos serve's url",
    facts: { electron: String(electron) },
    ...said(electron ? 'uiElectron' : 'uiBrowser'),
  };
}
