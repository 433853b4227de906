import type { ChatPolicy } from '../chat/chatPolicy.js';
import type { RetryPolicy } from '../chat/retryPolicy.js';
import type { DataHome } from '../dataHome.js';
import type { Clock, Logger, Scheduler } from '../ports.js';
import type { SecretStore } from '../secrets/secretStore.js';
import type { GatewayHooks } from '../tools/toolGateway.js';

/** What `createHost` is built from; every option has a default. */
export interface HostOptions {
  /** Data home (`$CHATOS_HOME`); default `$CHATOS_HOME`, then `~/.chatos`. */
  home?: string;
  /** The installed application's root; `plugins/` and `defaults/` are read from here, never written. */
  appRoot?: string;
  /** Built-in plugin root; default `<appRoot>/plugins`. */
  builtinPluginsDir?: string;
  /** Extra plugin roots for this process only (`--plugins`), treated like the user root (untrusted); remembered ones are read from the data home. */
  extraPluginRoots?: string[];
  /** Bundled defaults; default `<appRoot>/defaults`. */
  defaultsDir?: string;
  sessionRoot?: string;
  projectRoot?: string;
  /** The environment `{ env: NAME }` config values are read from; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Replaces the gateway's permission, confirmation and audit hooks (tests). */
  gatewayHooks?: GatewayHooks;
  /** Timers for deadlines (the 60 s confirmation expiry); default the system's, reading `clock`. */
  scheduler?: Scheduler;
  /**
   * How long a conversation's own server instance may sit unused before it
   * is released (default 10 minutes); mcp.yaml's `leases.idleMinutes` wins.
   */
  leaseIdleMs?: number;
  /**
   * How long the instances of a closed page or a gone WebSocket client are
   * kept in case it comes back (default 30 s); mcp.yaml's
   * `leases.releaseGraceSeconds` wins.
   */
  leaseGraceMs?: number;
  /** How long a plugin backend may go without a call before it is stopped (default 5 minutes); mcp.yaml's `leases.backendIdleMinutes` wins. */
  backendIdleMs?: number;
  /** docs/rules/names-and-exposure.md#where-the-contribution-lives: also persist plugin servers and prompts into the host's own lists. Default off. */
  syncAiContributes?: boolean;
  /**
   * This process only looks (a read-only CLI command): the admin DB is
   * opened without saving, so the registry sync still builds its view, in
   * memory, and nothing in the data home's DB changes.
   */
  readOnly?: boolean;
  /** Limits of the conversation loop (rounds per turn, sub-agent depth, retries); each has a default. */
  chat?: Partial<Omit<ChatPolicy, 'retry'>> & { retry?: Partial<RetryPolicy> };
  /** Where API keys are kept; default a file only the user can read (`chatos/secrets.json`). The desktop app passes its safeStorage store. */
  secrets?: (home: DataHome) => SecretStore;
  clock?: Clock;
  logger?: Logger;
}
