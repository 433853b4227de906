import { CANVAS_APP, type SidePanelContent } from './sidePanelState';

/** Where "pop out" goes: the content's full page. */
export function fullPagePath(content: SidePanelContent, conversationId: string): string {
  switch (content.kind) {
    case 'canvas':
      return `/apps/${CANVAS_APP.pluginId}/${CANVAS_APP.appId}?focus=${encodeURIComponent(content.instanceId)}&conversation=${encodeURIComponent(conversationId)}`;
    case 'uiApp':
      return `/apps/${encodeURIComponent(content.pluginId)}/${encodeURIComponent(content.appId)}?conversation=${encodeURIComponent(conversationId)}`;
    case 'mcpApp':
      // MCP App views have no page of their own: the lead wires this at merge (the tool card's conversation, at that call).
      return `/chat/${encodeURIComponent(conversationId)}`;
  }
}
