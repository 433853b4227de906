import { z } from 'zod';
import { callOf } from '../elicitation/elicitationFeature.js';
import type { ClientFeature } from '../mcp/client/clientFeatures.js';
import { isPlainObject } from '../plainObject.js';
import type { ServerCallers } from '../tools/serverCallers.js';
import type { SamplingService } from './samplingService.js';

/** sampling/createMessage with any params: the service checks them itself, saying what is wrong (the SDK's own check would refuse in zod's words, unrecorded). */
const CreateMessageSchema = z.object({ method: z.literal('sampling/createMessage'), params: z.unknown() });

/**
 * MCP sampling as a client feature (docs/using/sampling.md): the client
 * declares sampling with tools (spec 2025-11-25); a server's
 * sampling/createMessage, once the host's policy lets the server ask (a
 * granted caller has a call in flight), goes to the SamplingService with
 * the callers of that instance. The request is taken back when the server
 * cancels it, or when the instance's last call in flight ends. A request
 * sent as a task runs the same way under the task's signal
 * (docs/using/sampling.md#async-requests).
 */
export function samplingFeature(service: Pick<SamplingService, 'ask'>, callers: Pick<ServerCallers, 'of' | 'idleSignal' | 'callOf'>): ClientFeature {
  return {
    name: 'sampling',
    capabilities: { sampling: { tools: {} }, tasks: { requests: { sampling: { createMessage: {} } } } },
    attach(session) {
      session.onRequest(
        CreateMessageSchema,
        (request, extra) => {
          const { definition, lease } = session;
          const signal = AbortSignal.any([extra.signal, callers.idleSignal(definition.id, lease)]);
          // While the user reviews (and the host's model answers for the server), the calls of this instance do not time out
          // (docs/rules/mcp-yaml.md#timeouts): the wait is the host's, not the server's. maxTotalTimeout still bounds it.
          return session.userWaits.during(() =>
            service.ask({ asker: session, params: isPlainObject(request.params) ? request.params : {}, callers: callers.of(definition.id, lease), ...callOf(callers, session), signal }),
          );
        },
        { ownCheck: true, asTask: true },
      );
    },
  };
}
