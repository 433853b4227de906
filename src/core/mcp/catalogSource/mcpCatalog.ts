import type { McpServerEntryView } from '../../../shared/mcpAdmin.js';
import { MCP_SERVER_NAME_PATTERN } from '../../../shared/mcpAdmin.js';
import { CatalogAddSchema, CatalogBundleSchema, CatalogSearchSchema, OFFICIAL_MCP_REGISTRY_URL, type CatalogEntryView, type CatalogPage } from '../../../shared/mcpCatalog.js';
import type { McpServerAdmin } from '../admin/mcpServerAdmin.js';
import { CatalogCache } from './catalogCache.js';
import { CatalogError } from './catalogError.js';
import { serverInputOf } from './catalogInput.js';
import { runOptions } from './catalogOptions.js';
import { registryBase, RegistryClient, type RegistryClientOptions } from './registryClient.js';
import type { ServerResponse } from './serverJson.js';

/**
 * The MCP server catalog (docs/rules/catalog.md): an MCP Registry's entries,
 * searched and shown with exactly what each would run, and added to mcp.yaml
 * through the MCP servers' own add (McpServerAdmin.add), so an entry added
 * from the catalog is a typed server like any other. Listing runs nothing.
 */

export interface McpCatalogDeps {
  /** The registry to read now (the user's mcpRegistryUrl setting; the official one when unset). */
  registryUrl(): string | undefined;
  admin: Pick<McpServerAdmin, 'add'>;
  /** Where the last answer of each search is kept for offline use; none: nothing kept. */
  cacheDir?: string;
  client?: Omit<RegistryClientOptions, 'fetch'> & { fetch?: typeof fetch };
}

export class McpCatalog {
  private readonly cache: CatalogCache | undefined;

  constructor(private readonly deps: McpCatalogDeps) {
    this.cache = deps.cacheDir ? new CatalogCache(deps.cacheDir) : undefined;
  }

  /** The registry asked: the request's own, else the setting's, else the official one. */
  private client(registry?: string): RegistryClient {
    return new RegistryClient(registryBase(registry ?? this.deps.registryUrl() ?? OFFICIAL_MCP_REGISTRY_URL), this.deps.client);
  }

  /**
   * One page of the registry's latest entries, searched by name when `search` is given. When the
   * registry cannot be reached, the answer last seen for the same search, marked offline, if there is one.
   */
  async search(raw: unknown = {}): Promise<CatalogPage> {
    const query = CatalogSearchSchema.parse(raw);
    const client = this.client(query.registry);
    const key = JSON.stringify([client.shown, query.search ?? '', query.cursor ?? '', query.limit ?? 0]);
    let page;
    try {
      page = await client.list(query);
    } catch (error) {
      if (!(error instanceof CatalogError) || error.code !== 'CATALOG_UNREACHABLE') throw error;
      const cached = this.cache?.load(key);
      if (!cached) throw error;
      return { ...cached.page, offline: { savedAt: cached.savedAt, reason: error.message } };
    }
    const view: CatalogPage = {
      registry: client.shown,
      entries: page.entries.map(entryView),
      refused: page.refused,
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
    this.cache?.save(key, view);
    return view;
  }

  /** One entry (its latest version) with its ways to run. */
  async show(name: string, registry?: string): Promise<CatalogEntryView> {
    return entryView(await this.latest(name, registry));
  }

  /** Adds an entry to mcp.yaml: the chosen way to run it (the first that can be added, unless named), under its suggested name or the one given. */
  async add(raw: unknown): Promise<McpServerEntryView> {
    const request = CatalogAddSchema.parse(raw);
    const { detail, option } = await this.chosen(request);
    if (option.view.bundle)
      throw new CatalogError(
        'CATALOG_NOT_INSTALLABLE',
        `${option.view.label} is an MCP bundle: it installs as a plugin, not as a server in mcp.yaml`,
        `chatos catalog add ${request.name}${request.option !== undefined ? ` --option ${request.option}` : ''} installs it, with its plan shown first`,
      );
    const values = new Map<string, string>();
    for (const { name, value } of request.values) values.set(name, value);
    return this.deps.admin.add(serverInputOf(option, request.serverName ?? suggestedName(detail.name), values));
  }

  /**
   * The bundle the chosen way to run an entry installs (its address and the SHA-256 its download must have), or
   * undefined when that way is not a bundle: the faces then add it to mcp.yaml. Fetching and installing it is the
   * bundle install's (docs/using/bundles.md), the same as for an address the person pastes.
   */
  async bundle(raw: unknown): Promise<{ url: string; sha256: string } | undefined> {
    const { option } = await this.chosen(CatalogBundleSchema.parse(raw));
    return option.view.bundle;
  }

  /** The way to run an entry that a request chose (the first that can be installed, unless it names one), refused with the reason when it cannot be. */
  private async chosen(request: { name: string; registry?: string; option?: number }) {
    const detail = (await this.latest(request.name, request.registry)).server;
    const options = runOptions(detail);
    const option = request.option !== undefined ? options[request.option] : options.find((o) => o.view.installable);
    if (!option) {
      const why = options.map((o) => `${o.view.label}: ${o.view.reason}`).join('; ');
      throw new CatalogError(
        'CATALOG_NOT_INSTALLABLE',
        request.option !== undefined ? `${request.name} has no way to run numbered ${request.option}` : `${request.name} has no way to run that ChatOS can add${why ? ` (${why})` : ''}`,
        request.option !== undefined ? `choose one of 0…${options.length - 1} (chatos catalog show ${request.name})` : undefined,
      );
    }
    if (!option.view.installable) throw new CatalogError('CATALOG_NOT_INSTALLABLE', `${option.view.label}: ${option.view.reason}`, option.view.hint);
    return { detail, option };
  }

  private async latest(name: string, registry?: string): Promise<ServerResponse> {
    const client = this.client(registry);
    const found = await client.latest(name);
    if (!found) throw new CatalogError('CATALOG_NOT_FOUND', `the MCP registry at ${client.shown} has no server "${name}"`, 'search for it: chatos catalog search WORDS');
    return found;
  }
}

/** The mcp.yaml name an entry is added under: the part after its namespace, cut to a valid name ("io.github.user/weather" → "weather"). */
export function suggestedName(registryName: string): string {
  const tail = registryName.split('/').pop() ?? registryName;
  const cleaned = tail
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
  return MCP_SERVER_NAME_PATTERN.test(cleaned) ? cleaned : 'server';
}

function entryView(response: ServerResponse): CatalogEntryView {
  const { server } = response;
  const status = response._meta?.['io.modelcontextprotocol.registry/official']?.status;
  return {
    name: server.name,
    ...(server.title ? { title: server.title } : {}),
    description: server.description,
    version: server.version,
    ...(server.websiteUrl ? { websiteUrl: server.websiteUrl } : {}),
    ...(server.repository?.url ? { repositoryUrl: server.repository.url } : {}),
    ...(status ? { status } : {}),
    suggestedName: suggestedName(server.name),
    options: runOptions(server).map((o) => o.view),
  };
}
