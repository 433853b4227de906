import { fileURLToPath } from 'node:url';
import type { GatewayCallResult, OfferedTool } from '../core/facades/tools.js';
import type { ToolOutcome, ToolView } from '../shared/hostApi.js';
import type { FaceUrls } from './types.js';

/** A gateway result as a face shows it: saved images become artifact items with a url the face can load. */
export function toolOutcome(call: GatewayCallResult, urls: FaceUrls): ToolOutcome {
  const content = (call.result.content ?? []).map((item): ToolOutcome['content'][number] => {
    if (item.type === 'text') return { type: 'text', text: item.text };
    if (item.type === 'resource_link' && item._meta?.artifact === true && item.uri.startsWith('file:')) {
      const file = fileURLToPath(item.uri);
      return { type: 'artifact', path: file, mimeType: item.mimeType ?? 'application/octet-stream', url: urls.artifactUrl(file) };
    }
    return { type: 'other', json: item };
  });
  return {
    isError: call.result.isError === true,
    content,
    ...(call.result.structuredContent ? { structuredContent: call.result.structuredContent } : {}),
    ...(call.result._meta ? { _meta: call.result._meta } : {}),
    decision: call.decision,
    durationMs: call.durationMs,
    reminders: [...call.reminders],
  };
}

export function toolView(tool: OfferedTool): ToolView {
  return {
    name: tool.name,
    rawName: tool.rawName,
    serverId: tool.serverId,
    serverName: tool.serverName,
    description: tool.description,
    inputSchema: tool.inputSchema as Record<string, unknown>,
    permission: tool.permission,
    permissionSource: tool.permissionSource,
    ...(tool.ui ? { ui: tool.ui } : {}),
  };
}
