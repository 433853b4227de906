import { expandTemplate } from '../../shared/uriTemplate.js';
import { ApiFailure } from '../apiErrors.js';
import type { HandlerContext, Handlers } from './types.js';

/** A server's resources for an agent's caller in a conversation: the host checks the caller's access (docs/rules/resources.md#grant). */
export function resourceHandlers({ host }: HandlerContext): Handlers<'resources.servers' | 'resources.fill' | 'resources.list' | 'resources.read' | 'resources.subscribe' | 'resources.complete'> {
  const callerOf = (agentId: string, flow: 'main' | 'sub', conversationId: string) => host.tools.callers.agent(agentId, flow, conversationId).caller;
  return {
    'resources.servers': ({ agentId, flow, conversationId }) => ({
      servers: host.tools.visibleServers(callerOf(agentId, flow, conversationId)).map((server) => ({ serverId: server.id, name: server.name })),
    }),
    'resources.fill': ({ uriTemplate, values }) => {
      const filled = expandTemplate(uriTemplate, values);
      if (!filled.ok) throw new ApiFailure('INVALID', filled.reason, 'fill in every argument; a path may not climb out with ".."');
      return { uri: filled.uri };
    },
    'resources.list': ({ agentId, flow, conversationId, serverId }) => host.tools.resources.list(callerOf(agentId, flow, conversationId), serverId),
    'resources.read': ({ agentId, flow, conversationId, serverId, uri }) => host.tools.resources.read(callerOf(agentId, flow, conversationId), serverId, uri),
    'resources.subscribe': async ({ agentId, flow, conversationId, serverId, uri, subscribed }) => {
      await host.tools.resources.subscribe(callerOf(agentId, flow, conversationId), serverId, uri, subscribed);
      return { subscribed };
    },
    'resources.complete': async ({ agentId, flow, conversationId, serverId, uriTemplate, name, value, context }) => ({
      values: await host.tools.resources.complete(callerOf(agentId, flow, conversationId), serverId, uriTemplate, { name, value }, context),
    }),
  };
}
