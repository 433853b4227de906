import * as path from 'node:path';
import { findAppRoot } from '../appPaths.js';
import { AuditLog } from '../audit/auditLog.js';
import { DataHome, resolveDataHome } from '../dataHome.js';
import type { HostSetup } from '../facades/setup.js';
import { silentLogger, systemClock, systemScheduler, type Clock, type Logger, type Scheduler } from '../ports.js';
import { PidRegistry } from '../process/pidRegistry.js';
import { hostModulesOf, type HostModules } from '../runtime/hostModules.js';
import { FileSecretStore } from '../secrets/fileSecretStore.js';
import type { SecretStore } from '../secrets/secretStore.js';
import { HostEventBus } from './hostEventBus.js';
import type { HostOptions } from './hostOptions.js';

/**
 * What every module is built on: the options resolved to paths, the ports
 * (clock, scheduler, logger), the event bus, and the few things that live
 * beside the admin DB rather than in it (the key store, the audit log, the
 * record of processes this host runs). Nothing here does I/O.
 */
export interface HostBase extends HostSetup {
  readonly options: HostOptions;
  readonly sessionRoot: string;
  readonly projectRoot: string;
  readonly builtinPluginsDir: string;
  /** The environment `{ env: NAME }` values and servers' environments are read from. */
  readonly env: NodeJS.ProcessEnv;
  readonly scheduler: Scheduler;
  /** Lease times and deadlines on one clock: a test's scheduler moves the idle time of the instances too. */
  readonly now: () => number;
  /** The host's SDK and zod as plugin servers and backends get them. */
  readonly hostModules: HostModules;
  readonly events: HostEventBus;
  readonly secrets: SecretStore;
  readonly audit: AuditLog;
  /** Where this process records what it runs (servers and backends alike): after a crash, the next start of any host ends both. */
  readonly runDir: string;
  readonly pids: PidRegistry;
}

export function hostBase(options: HostOptions): HostBase {
  const home = new DataHome(resolveDataHome(options.home));
  const appRoot = options.appRoot ?? findAppRoot();
  const sessionRoot = path.resolve(options.sessionRoot ?? process.cwd());
  const clock: Clock = options.clock ?? systemClock;
  const logger: Logger = options.logger ?? silentLogger;
  const scheduler: Scheduler = options.scheduler ?? { ...systemScheduler, now: () => clock.now() };
  const runDir = path.join(home.hostDir, 'run');
  return {
    options,
    home,
    appRoot,
    defaultsDir: options.defaultsDir ?? path.join(appRoot, 'defaults'),
    sessionRoot,
    projectRoot: path.resolve(options.projectRoot ?? sessionRoot),
    builtinPluginsDir: options.builtinPluginsDir ?? path.join(appRoot, 'plugins'),
    env: options.env ?? process.env,
    clock,
    logger,
    scheduler,
    now: options.scheduler ? () => scheduler.now() : () => clock.now(),
    hostModules: hostModulesOf(appRoot),
    events: new HostEventBus(),
    secrets: options.secrets?.(home) ?? new FileSecretStore(home.secretsFile, { logger }),
    audit: new AuditLog(path.join(home.hostDir, 'audit'), undefined, scheduler),
    runDir,
    pids: new PidRegistry(runDir),
  };
}

/** The setup a face reads (a narrow view of the base). */
export const setupOf = (base: HostBase): HostSetup => ({ home: base.home, appRoot: base.appRoot, defaultsDir: base.defaultsDir, clock: base.clock, logger: base.logger });
