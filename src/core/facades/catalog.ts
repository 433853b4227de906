import type { McpCatalog } from '../mcp/catalogSource/mcpCatalog.js';

/** The MCP server catalog (docs/rules/catalog.md): an MCP Registry's entries, searched and shown with what each runs, and added to mcp.yaml. */
export type CatalogFacade = Pick<McpCatalog, 'search' | 'show' | 'add' | 'bundle'>;
