import * as path from 'node:path';
import { findAppRoot } from './appPaths.js';
import { ExposeDefaults } from './contributions/exposeDefaults.js';
import { PluginCatalog } from './contributions/pluginCatalog.js';
import { DataHome, resolveDataHome } from './dataHome.js';
import { PluginScanner, type PluginRoot } from './plugins/pluginScanner.js';

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface Clock {
  now(): number;
}

export interface HostOptions {
  /** Data home (`$CHATOS_HOME`); default `$CHATOS_HOME`, then `~/.chatos`. */
  home?: string;
  /** The installed application's root; `plugins/` and `defaults/` are read from here, never written. */
  appRoot?: string;
  /** Built-in plugin root; default `<appRoot>/plugins`. */
  builtinPluginsDir?: string;
  /** Extra plugin roots, treated like the user root (untrusted). */
  extraPluginRoots?: string[];
  /** Bundled defaults; default `<appRoot>/defaults`. */
  defaultsDir?: string;
  sessionRoot?: string;
  projectRoot?: string;
  clock?: Clock;
  logger?: Logger;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
export const systemClock: Clock = { now: () => Date.now() };

/** The host core: everything the three faces (Electron, `chatos serve`, the CLI) share. */
export interface Host {
  readonly home: DataHome;
  readonly appRoot: string;
  readonly defaultsDir: string;
  readonly pluginRoots: readonly PluginRoot[];
  readonly catalog: PluginCatalog;
  readonly clock: Clock;
  readonly logger: Logger;
  dispose(): Promise<void>;
}

/**
 * The composition root: the only place services are constructed and wired.
 * No async work happens here; nothing is scanned or started until asked.
 */
export function createHost(options: HostOptions = {}): Host {
  const home = new DataHome(resolveDataHome(options.home));
  const appRoot = options.appRoot ?? findAppRoot();
  const defaultsDir = options.defaultsDir ?? path.join(appRoot, 'defaults');
  const sessionRoot = path.resolve(options.sessionRoot ?? process.cwd());
  const pluginRoots: PluginRoot[] = [
    { dir: options.builtinPluginsDir ?? path.join(appRoot, 'plugins'), source: 'builtin' },
    { dir: home.userPluginsDir, source: 'user' },
    ...(options.extraPluginRoots ?? []).map((dir) => ({ dir: path.resolve(dir), source: 'extra' as const })),
  ];
  const scanner = new PluginScanner(pluginRoots, {
    home,
    exposeDefaults: new ExposeDefaults(path.join(defaultsDir, 'ui-apps-expose')),
    sessionRoot,
    projectRoot: path.resolve(options.projectRoot ?? sessionRoot),
  });
  return {
    home,
    appRoot,
    defaultsDir,
    pluginRoots,
    catalog: new PluginCatalog(scanner),
    clock: options.clock ?? systemClock,
    logger: options.logger ?? silentLogger,
    async dispose() {
      // Nothing holds resources yet; later services (registry, servers) close here.
    },
  };
}
