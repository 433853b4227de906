import { useEffect, useState } from 'react';
import type { AppView } from '../../../../src/shared/hostApi';
import { api } from '../../api/client';
import { newFrameConversationId } from '../uiapp/frameRegistry';
import { McpAppFrame } from './McpAppFrame';

/**
 * An app's page that is an MCP App (docs/plugins/pages.md#a-page-that-is-an-mcp-app):
 * its `ui://` view, read from the app's own server with the app as the
 * caller, in the same frame a tool's view gets. One conversation per mount,
 * as a module page has, ended when the page goes (its server's lease and
 * "approve for this conversation" end with it).
 */
export function McpAppPage({ app, resourceUri }: { app: AppView; resourceUri: string }) {
  const [conversationId] = useState(() => newFrameConversationId(app.pluginId, app.appId));
  useEffect(() => () => void api.call('conversations.end', { conversationId }).catch(() => undefined), [conversationId]);
  return <McpAppFrame caller={{ pluginId: app.pluginId, appId: app.appId, conversationId }} serverId={app.serverId ?? ''} serverName={app.name} resourceUri={resourceUri} displayMode="inline" />;
}
