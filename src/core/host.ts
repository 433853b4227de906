import * as path from 'node:path';
import { findAppRoot } from './appPaths.js';
import { ExposeDefaults } from './contributions/exposeDefaults.js';
import { PluginCatalog } from './contributions/pluginCatalog.js';
import { DataHome, resolveDataHome } from './dataHome.js';
import type { Problem } from '../shared/problems.js';
import { PluginScanner, type PluginRoot, type ScanResult } from './plugins/pluginScanner.js';
import { RegistryCenter } from './registry/registryCenter.js';
import { RegistrySync } from './registry/registrySync.js';
import { RecordsStore } from './store/recordsStore.js';
import { Fingerprinter } from './trust/pluginFingerprint.js';
import { PluginTrust } from './trust/pluginTrust.js';

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
  /** Seed 000 §4.1: also persist plugin servers and prompts into the host's own lists. Default off. */
  syncAiContributes?: boolean;
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
  /** Opens the host's admin DB and fills the registry (seed 001 bootstrap). Needed by everything below. */
  start(): Promise<void>;
  readonly registry: RegistryCenter;
  readonly trust: PluginTrust;
  /** Problems found by `start()` (the admin DB, provider DBs, defaults) and by the last rescan's registry sync. */
  readonly registryProblems: readonly Problem[];
  /** Scans the plugin roots (re-reading only what changed) and syncs the registry with the result. */
  rescan(): ScanResult;
  /** Flushes the admin DB and releases everything. */
  dispose(): Promise<void>;
}

/**
 * The composition root: the only place services are constructed and wired.
 * No async work happens here; nothing is scanned, opened or started until
 * `start()` is called.
 */
export function createHost(options: HostOptions = {}): Host {
  const home = new DataHome(resolveDataHome(options.home));
  const appRoot = options.appRoot ?? findAppRoot();
  const defaultsDir = options.defaultsDir ?? path.join(appRoot, 'defaults');
  const sessionRoot = path.resolve(options.sessionRoot ?? process.cwd());
  const projectRoot = path.resolve(options.projectRoot ?? sessionRoot);
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const pluginRoots: PluginRoot[] = [
    { dir: options.builtinPluginsDir ?? path.join(appRoot, 'plugins'), source: 'builtin' },
    { dir: home.userPluginsDir, source: 'user' },
    ...(options.extraPluginRoots ?? []).map((dir) => ({ dir: path.resolve(dir), source: 'extra' as const })),
  ];
  const scanner = new PluginScanner(pluginRoots, {
    home,
    exposeDefaults: new ExposeDefaults(path.join(defaultsDir, 'ui-apps-expose')),
    sessionRoot,
    projectRoot,
  });
  const catalog = new PluginCatalog(scanner);

  let started: { store: RecordsStore; registry: RegistryCenter; trust: PluginTrust; sync: RegistrySync } | undefined;
  let startupProblems: Problem[] = [];
  let syncProblems: Problem[] = [];
  const need = () => {
    if (!started) throw new Error('the host is not started: call start() first');
    return started;
  };

  return {
    home,
    appRoot,
    defaultsDir,
    pluginRoots,
    catalog,
    clock,
    logger,
    async start() {
      if (started) return;
      const store = await RecordsStore.open(home.adminDb(), { clock, logger });
      const registry = new RegistryCenter(store, clock);
      const sync = new RegistrySync({ registry, hostStore: store, home, appRoot, defaultsDir, sessionRoot, projectRoot, syncAiContributes: options.syncAiContributes ?? false });
      started = { store, registry, trust: new PluginTrust(store, new Fingerprinter(), clock), sync };
      const boot = await sync.bootstrap(catalog.rescan());
      startupProblems = [...store.problems, ...boot.problems];
    },
    get registry() {
      return need().registry;
    },
    get trust() {
      return need().trust;
    },
    get registryProblems() {
      return [...startupProblems, ...syncProblems];
    },
    rescan() {
      const { sync } = need();
      const result = catalog.rescan();
      syncProblems = sync.syncPlugins(result).problems;
      return result;
    },
    async dispose() {
      const current = started;
      started = undefined;
      await current?.store.close();
    },
  };
}
