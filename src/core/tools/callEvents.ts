import type { GatewayHooks } from './toolGateway.js';

/** A call that reached a plugin app's own server, whoever made it (an agent, a page, the CLI of this process). */
export interface AppToolCall {
  pluginId: string;
  appId: string;
  serverId: string;
  /** The tool's raw name, as the app's page calls it. */
  tool: string;
  /** The server answered without an error. */
  ok: boolean;
}

/**
 * The hooks, plus: after every call that reached a plugin app's server, the
 * call is announced (so the host can tell the app's open pages that
 * something may have changed; the Canvas page re-reads on it). A declined
 * call never reached the server and is not announced. Runs on every call:
 * one property check for servers that are not a plugin's, and a listener
 * that throws never fails the call.
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
        announce({ pluginId: plugin.pluginId, appId: plugin.appId, serverId: record.tool.serverId, tool: record.tool.rawName, ok: record.outcome === 'ok' });
      } catch (error) {
        onError(error);
      }
    },
  };
}
