/** Who a view acts for: the caller the tool card's tools came from (a conversation's agent, or the Playground's). */
export interface McpAppCaller {
  agentId: string;
  flow: 'main' | 'sub';
  conversationId: string;
}

/** An app's own page that is an MCP App (docs/plugins/pages.md#a-page-that-is-an-mcp-app): the app is the caller, in the page's own conversation. */
export interface McpAppPageCaller {
  pluginId: string;
  appId: string;
  conversationId: string;
}

export type ViewCaller = McpAppCaller | McpAppPageCaller;
