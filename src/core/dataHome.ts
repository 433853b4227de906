import * as os from 'node:os';
import * as path from 'node:path';

/** The host's own app id: its folder under the data home, and the registry owner. */
export const HOST_APP_ID = 'chatos';

/** `--home`, else `$CHATOS_HOME`, else `~/.chatos`. */
export function resolveDataHome(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(explicit ?? env.CHATOS_HOME ?? path.join(os.homedir(), '.chatos'));
}

/**
 * Where everything lives under `$CHATOS_HOME` (docs/reference/data-home.md): one
 * folder per app, the host's being `chatos/`. Nothing is ever written inside
 * the installed application.
 */
export class DataHome {
  constructor(readonly root: string) {}

  appDir(appId: string): string {
    return path.join(this.root, appId);
  }

  get hostDir(): string {
    return this.appDir(HOST_APP_ID);
  }

  adminDb(appId: string = HOST_APP_ID): string {
    return path.join(this.appDir(appId), 'admin.db');
  }

  /** Extra plugin roots the user added, remembered for every process (see rememberedRoots.ts). */
  get pluginRootsFile(): string {
    return path.join(this.hostDir, 'plugin-roots.json');
  }

  /** The MCP catalog's last answers, for offline use (docs/rules/catalog.md#offline). */
  get catalogCache(): string {
    return path.join(this.hostDir, 'catalog-cache');
  }

  get mcpConfig(): string {
    return path.join(this.hostDir, 'mcp.yaml');
  }

  get userPluginsDir(): string {
    return path.join(this.hostDir, 'ui_apps', 'plugins');
  }

  pluginDataDir(pluginId: string): string {
    return path.join(this.hostDir, 'ui_apps', 'data', pluginId);
  }

  pluginStateDir(pluginId: string): string {
    return path.join(this.hostDir, 'ui_apps', 'state', pluginId);
  }

  /**
   * The host's record of an installed MCP Bundle (its kept settings, the names of its stored values, its signer): in a
   * folder no plugin is given, so the bundle cannot choose what its next update keeps.
   */
  bundleRecordFile(pluginId: string): string {
    return path.join(this.hostDir, 'bundles', `${pluginId}.json`);
  }

  /** API keys of `chatos serve` and the CLI (the desktop app keeps its own, encrypted: secrets.safe.json). */
  get secretsFile(): string {
    return path.join(this.hostDir, 'secrets.json');
  }

  /** Plugin folders linked in place for development (`chatos dev DIR`), scanned by every process. */
  get devLinksFile(): string {
    return path.join(this.hostDir, 'dev-links.json');
  }

  /** The token of `chatos serve` for this data home, kept across restarts (a file only the user can read). */
  get serveTokenFile(): string {
    return path.join(this.hostDir, 'serve-token.json');
  }

  /** Images of calls made outside a conversation (a conversation keeps its own in its folder). */
  get artifactsDir(): string {
    return path.join(this.hostDir, 'artifacts');
  }

  /** One folder per conversation: its messages (`messages.jsonl`) and `artifacts/`. */
  get conversationsDir(): string {
    return path.join(this.hostDir, 'conversations');
  }

  /** One folder per knowledge base: its settings (`base.json`), its store (`store.sqlite`: chunks, words, vectors) and its vector graph (`ann-*.usearch`). */
  get knowledgeDir(): string {
    return path.join(this.hostDir, 'knowledge');
  }

  /** Agents' memories: `agents/<agentId>.json` (its own) and `apps/<hostAppId>.json` (shared by an app's agents). */
  get memoryDir(): string {
    return path.join(this.hostDir, 'memory');
  }
}
