import { z } from 'zod';
import { McpServerEntryViewSchema } from './mcpAdmin.js';

/**
 * The MCP server catalog (docs/rules/catalog.md): entries of an MCP Registry
 * (the official one at registry.modelcontextprotocol.io by default, or a
 * company's own) as the Catalog page and `chatos catalog` show them, and the
 * choices a person makes to add one. The registry's own shapes (its
 * `server.json`) are read in the core; what crosses to a face is only these
 * views, with every command, URL and asked value spelled out.
 */

/** The official registry; a setting (`mcpRegistryUrl`) names another. */
export const OFFICIAL_MCP_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/** One value the person is asked for before an entry is added: an environment variable, a header, an argument or a URL variable. */
export const CatalogInputViewSchema = z.object({
  /** How the add names it (`values[name]`); unique within one way to run. */
  name: z.string(),
  kind: z.enum(['env', 'header', 'argument', 'variable']),
  description: z.string().optional(),
  required: z.boolean(),
  /** Kept in the key store, never in mcp.yaml (an argument cannot be: see `note`). */
  secret: z.boolean(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
  /** Something the person should know about this value (a secret argument is written into mcp.yaml as text). */
  note: z.string().optional(),
});
export type CatalogInputView = z.infer<typeof CatalogInputViewSchema>;

/** One way to run an entry: one of its packages (run by npx, uvx or docker over stdio) or one of its remotes (streamable HTTP). */
export const CatalogOptionViewSchema = z.object({
  /** Its index among the entry's options (packages first, then remotes): `option` of an add. */
  index: z.number().int().nonnegative(),
  kind: z.enum(['package', 'remote']),
  /** e.g. "npm @modelcontextprotocol/server-everything 2025.9.25" or "streamable-http https://example.com/mcp". */
  label: z.string(),
  /** Whether ChatOS can add it; `reason` says why not (an mcpb bundle, SSE, a name it will not run). */
  installable: z.boolean(),
  reason: z.string().optional(),
  hint: z.string().optional(),
  /** The program and its arguments, `<name>` where a value asked for goes (stdio). */
  command: z.string().optional(),
  args: z.array(z.string()).optional(),
  /** The endpoint, `{name}` where a variable asked for goes (remote). */
  url: z.string().optional(),
  /** What is downloaded from where when it first starts, e.g. "the npm package X 1.2.3 from https://registry.npmjs.org". */
  downloads: z.string().optional(),
  /**
   * An MCP Bundle (registryType mcpb): installed as a plugin, not added to mcp.yaml. Its address and the SHA-256 the
   * registry names for the file; the download is refused unless its bytes have that digest.
   */
  bundle: z.object({ url: z.string(), sha256: z.string() }).optional(),
  inputs: z.array(CatalogInputViewSchema),
});
export type CatalogOptionView = z.infer<typeof CatalogOptionViewSchema>;

export const CatalogEntryViewSchema = z.object({
  /** The registry's name, e.g. "io.github.user/weather". */
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  version: z.string(),
  websiteUrl: z.string().optional(),
  repositoryUrl: z.string().optional(),
  /** The registry's lifecycle status ("active", "deprecated"), when it says. */
  status: z.string().optional(),
  /** The mcp.yaml name it is added under unless the person names another. */
  suggestedName: z.string(),
  options: z.array(CatalogOptionViewSchema),
});
export type CatalogEntryView = z.infer<typeof CatalogEntryViewSchema>;

export const CatalogPageSchema = z.object({
  /** The registry asked (its origin and path, never a query). */
  registry: z.string(),
  entries: z.array(CatalogEntryViewSchema),
  /** Entries of the answer that were not valid server.json, each with why; they are not shown. */
  refused: z.array(z.object({ name: z.string(), reason: z.string() })),
  nextCursor: z.string().optional(),
  /** Set when the registry could not be reached and this is the answer last seen (docs/rules/catalog.md#offline): when it was saved, and why it is not fresh. */
  offline: z.object({ savedAt: z.string(), reason: z.string() }).optional(),
});
export type CatalogPage = z.infer<typeof CatalogPageSchema>;

/** Another registry than the setting's, for one request (`chatos catalog --registry URL`). */
const RegistryUrlSchema = z.string().max(2048).optional();

/** A search as a face sends it. */
export const CatalogSearchSchema = z
  .object({
    registry: RegistryUrlSchema,
    search: z.string().max(200).optional(),
    cursor: z.string().max(4096).optional(),
    limit: z.number().int().min(1).max(100).optional(),
  })
  .strict();

/** Adding an entry: which way to run it, under which name, with the values asked for (by input name). */
export const CatalogAddSchema = z
  .object({
    registry: RegistryUrlSchema,
    name: z.string().min(1).max(200),
    option: z.number().int().nonnegative().optional(),
    serverName: z.string().max(64).optional(),
    values: z
      .array(z.object({ name: z.string().min(1).max(256), value: z.string().max(16_384) }).strict())
      .max(256)
      .default([]),
  })
  .strict();

/** Which entry's bundle to fetch (an entry and, unless the first bundle it offers, which way to run it). */
export const CatalogBundleSchema = z
  .object({
    registry: RegistryUrlSchema,
    name: z.string().min(1).max(200),
    option: z.number().int().nonnegative().optional(),
  })
  .strict();
export type CatalogBundleRequest = z.infer<typeof CatalogBundleSchema>;

export const CatalogAddResultSchema = z.object({ server: McpServerEntryViewSchema });
