import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayHooks } from './toolGateway.js';

/** An instance id longer than this is not passed on: it names nothing a face could open. */
const MAX_INSTANCE_ID = 200;

/** A call that reached a plugin app's own server, whoever made it (an agent, a page, the CLI of this process). */
export interface AppToolCall {
  pluginId: string;
  appId: string;
  serverId: string;
  /** The tool's raw name, as the app's page calls it. */
  tool: string;
  /** The server answered without an error. */
  ok: boolean;
  /** The caller's conversation: a chat's side panel follows the calls its own agent makes. */
  conversationId: string;
  /** The agent that called, when an agent did (not a page, not a script). */
  agentId?: string;
  /** The instance the answer names (`structuredContent.instance_id`, docs/rules/canvas.md#tools), so a face can show it. */
  instanceId?: string;
  /** The answer says the call created that instance. */
  created?: boolean;
}

/** What the answer says the call was about: read as data, bounded, never trusted to be of any shape. */
function subjectOf(result: CallToolResult | undefined): Pick<AppToolCall, 'instanceId' | 'created'> {
  const content = result?.structuredContent;
  if (typeof content !== 'object' || content === null || !Object.hasOwn(content, 'instance_id')) return {};
  const { instance_id: id, deleted } = content as { instance_id?: unknown; deleted?: unknown };
  // A deleted instance is nothing to show.
  if (deleted === true) return {};
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_INSTANCE_ID) return {};
  return (content as { created?: unknown }).created === true ? { instanceId: id, created: true } : { instanceId: id };
}

/**
 * The hooks, plus: after every call that reached a plugin app's server, the
 * call is announced (so the host can tell the app's open pages that
 * something may have changed; the Canvas page re-reads on it, and a chat's
 * side panel opens on the instance its agent built). A declined call never
 * reached the server and is not announced. Runs on every call: one property
 * check for servers that are not a plugin's, and a listener that throws
 * never fails the call.
 */
export function announcingAppCalls(hooks: GatewayHooks, announce: (call: AppToolCall) => void, onError: (error: unknown) => void): GatewayHooks {
  // The other hooks as they are (refusals are audited, and never reach a server to announce), and only those that
  // exist: the gateway treats a present permissionOverride as "never cache a resolution".
  return {
    ...hooks,
    afterCall(record) {
      hooks.afterCall?.(record);
      const plugin = record.server?.plugin;
      if (!plugin || record.outcome === 'declined') return;
      try {
        const ok = record.outcome === 'ok';
        const { caller } = record;
        announce({
          pluginId: plugin.pluginId,
          appId: plugin.appId,
          serverId: record.tool.serverId,
          tool: record.tool.rawName,
          ok,
          conversationId: caller.conversationId,
          ...(caller.agentId !== undefined && !caller.fromPage ? { agentId: caller.agentId } : {}),
          ...(ok ? subjectOf(record.result) : {}),
        });
      } catch (error) {
        onError(error);
      }
    },
  };
}
