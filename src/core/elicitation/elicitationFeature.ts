import { ElicitationCompleteNotificationSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { QuestionCall } from '../../shared/question.js';
import type { ClientFeature, FeatureSession } from '../mcp/client/clientFeatures.js';
import { pagesNotOpened, type AskForPages } from '../mcp/client/urlsRequired.js';
import type { ServerCallers } from '../tools/serverCallers.js';
import { paramsOf, type ElicitationService } from './elicitationService.js';

/** elicitation/create with any params: the service checks them itself, saying what is wrong (the SDK's own check would refuse in zod's words, unrecorded). */
const ElicitationCreateSchema = z.object({ method: z.literal('elicitation/create'), params: z.unknown() });

/**
 * MCP elicitation as a client feature (docs/using/elicitation.md): the client declares form
 * and url mode; a server's elicitation/create, once the host's policy lets
 * the server ask (a granted caller has a call in flight), goes to the
 * ElicitationService with the callers of that server instance. The
 * question is taken back when the server cancels its request, or when the
 * instance's last call in flight ends; a url question ends when the server
 * says it is complete (notifications/elicitation/complete). A question
 * sent as a task runs the same way under the task's signal
 * (docs/using/elicitation.md#async-requests).
 */
export function elicitationFeature(service: Pick<ElicitationService, 'ask' | 'complete'>, callers: Pick<ServerCallers, 'of' | 'idleSignal' | 'callOf'>): ClientFeature {
  return {
    name: 'elicitation',
    capabilities: { elicitation: { form: {}, url: {} }, tasks: { requests: { elicitation: { create: {} } } } },
    attach(session) {
      session.onRequest(
        ElicitationCreateSchema,
        (request, extra) => {
          const { definition, lease } = session;
          const signal = AbortSignal.any([extra.signal, callers.idleSignal(definition.id, lease)]);
          // While the user reads and answers, the calls of this instance do not time out (docs/rules/mcp-yaml.md#timeouts).
          return session.userWaits.during(() => service.ask({ asker: session, params: paramsOf(request.params), callers: callers.of(definition.id, lease), ...callOf(callers, session), signal }));
        },
        { ownCheck: true, asTask: true },
      );
      // Pages a call needs opened first (error -32042): the same url questions, put one after the other.
      session.tools.onPagesRequired(pagesAsker(service, callers, session));
      // A url question the server says is done: its card closes (or its completion is recorded); an unknown id is ignored.
      session.onNotification(ElicitationCompleteNotificationSchema, ({ params }) => void service.complete(session, params.elicitationId));
    },
  };
}

/**
 * The pages of a -32042 answer put to the user as url questions (docs/using/elicitation.md#pages-a-call-needs-first),
 * under the same policy and limits as an `elicitation/create`: undefined once every one was opened (the call is made
 * again), else the result that says why not.
 */
function pagesAsker(service: Pick<ElicitationService, 'ask'>, callers: Pick<ServerCallers, 'of' | 'idleSignal' | 'callOf'>, session: FeatureSession): AskForPages {
  const { definition } = session;
  return async (pages, callSignal) => {
    const allowed = session.mayAsk('elicitation/create');
    if (!allowed.ok) return pagesNotOpened(definition.id, `ChatOS did not ask: ${allowed.reason}`);
    for (const page of pages) {
      const signal = AbortSignal.any([...(callSignal ? [callSignal] : []), callers.idleSignal(definition.id, session.lease)]);
      try {
        const answer = await session.userWaits.during(() => service.ask({ asker: session, params: page, callers: callers.of(definition.id, session.lease), ...callOf(callers, session), signal }));
        if (answer.action !== 'accept') return pagesNotOpened(definition.id, answer.action === 'decline' ? 'the user declined to open it' : 'it was not opened (cancelled)');
      } catch (error) {
        if (error instanceof McpError) return pagesNotOpened(definition.id, error.message.replace(/^MCP error -?\d+: /, ''));
        throw error;
      }
    }
    return undefined;
  };
}

/** The call a server's question is part of (the one call in flight on its instance), so a face shows it on that call's card. */
export function callOf(callers: Pick<ServerCallers, 'callOf'>, { definition, lease }: Pick<FeatureSession, 'definition' | 'lease'>): { call?: QuestionCall } {
  const call = callers.callOf(definition.id, lease);
  return call === undefined ? {} : { call };
}
