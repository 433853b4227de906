import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/**
 * What the host asks of one connection's protocol client, whichever era the
 * server speaks (docs/rules/mcp-yaml.md#protocol-eras): the v1 SDK client
 * (2025-11-25 and older, `initialize`) has it as it is, and ModernClient
 * (2026-07-28, stateless, over the v2 SDK client) gives the same methods.
 * The gateway, grants, confirmations and audit see only this seam.
 */
export type McpWire = Pick<
  Client,
  | 'listTools'
  | 'callTool'
  | 'setNotificationHandler'
  | 'getServerCapabilities'
  | 'getInstructions'
  | 'setLoggingLevel'
  | 'readResource'
  | 'listResources'
  | 'listResourceTemplates'
  | 'subscribeResource'
  | 'unsubscribeResource'
  | 'complete'
  | 'listPrompts'
  | 'getPrompt'
  | 'sendRootsListChanged'
  | 'close'
>;

/** Which protocol era a connection speaks: `legacy` (initialize, 2025-11-25 and older) or `modern` (2026-07-28, stateless). */
export type ProtocolEra = 'legacy' | 'modern';
