import { describe, expect, it } from 'vitest';
import { createHost } from '../../../src/core/host.js';
import type { AssistantMessage, ConversationMessage } from '../../../src/shared/chat.js';
import { formDefaults } from '../../../src/shared/elicitation.js';
import { fileIsWhole, startChatWorld, toolResultsIn } from '../../helpers/chatWorld.js';
import { startModernWireServer } from '../../helpers/modernWireServer.js';
import { answerElicitation, confirm, onAsked } from '../../helpers/questions.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

/**
 * Bad input from a 2026-07-28 server loses nothing stored (issue 43, bad input): a server that answered the
 * discovery and then answers a call with what that era does not allow (a malformed `input_required`, a result
 * that is no result) ends that call with a problem naming the server; the model is told, the turn ends, and
 * the conversation (the turn before, the call, its failure, the answer after) is on disk whole and reads back
 * the same in a new process.
 */

/** What the server answers the call with, and what the model is told of it (the call ends at once: one request). */
const BAD_ANSWERS: readonly [string, unknown, string][] = [
  ['an input_required whose inputRequests is not a map', { resultType: 'input_required', inputRequests: 'name please', requestState: 's' }, 'its inputRequests is not a map of requests'],
  ['an input_required whose requestState is not a string', { resultType: 'input_required', inputRequests: {}, requestState: 7 }, 'its requestState is not a string'],
  ['an input_required with neither requests nor state', { resultType: 'input_required' }, 'it has neither inputRequests nor requestState'],
  [
    'an input_required asking with a method no client has',
    { resultType: 'input_required', inputRequests: { x: { method: 'no/such', params: {} } }, requestState: 's' },
    "'no/such' is not an embedded request",
  ],
  ['a result of a type the era does not have', { resultType: 'eventually', content: [{ type: 'text', text: 'later' }] }, "Unsupported result type 'eventually'"],
  ['a result whose content is not a list', { resultType: 'complete', content: 'not a list' }, 'Invalid result for tools/call'],
  ['a body that is not JSON', '{"jsonrpc":"2.0","id":', 'Unexpected end of JSON input'],
];

const textsOf = (messages: readonly ConversationMessage[]) => messages.map((m) => `${m.role}: ${m.role === 'assistant' ? (m as AssistantMessage).text : m.role === 'user' ? m.text : ''}`);

describe('a 2026-07-28 server that answers a call with what its era does not allow', { timeout: 120_000 }, () => {
  for (const [what, answer, said] of BAD_ANSWERS) {
    it(`${what}: the call fails naming the server, the conversation is kept whole`, async () => {
      const server = await startModernWireServer('malformed', { answer });
      const { host, provider, home } = await startChatWorld({ servers: { odd: { transport: 'streamable_http', url: server.url } } });
      // The person says yes to whatever is asked: nothing the server sends may get further because of it.
      onAsked(host, 'toolConfirmation', (request) => void confirm(host, request.id, true));
      onAsked(host, 'elicitation', (request) => void answerElicitation(host, request.id, 'accept', request.mode === 'form' ? formDefaults(request.fields) : undefined));

      provider.enqueue({ kind: 'reply', text: 'Noted.' });
      const first = host.chat.send({ agentId: 'helper', text: 'remember this' });
      await first.done;
      provider.enqueue({ kind: 'reply', text: 'Asking.', toolCalls: [{ id: 'c1', name: 'mcp_odd_ask', arguments: {} }] }, { kind: 'reply', text: 'The server failed.' });
      const second = host.chat.send({ conversationId: first.conversationId, text: 'ask it' });
      expect((await second.done).status).toBe('done');

      // The model was told the call failed, and by which server.
      const [[callId, told]] = toolResultsIn(provider.requests[2]!.body) as [[string, string]];
      expect(callId).toBe('c1');
      expect(told).toContain('call to ask on "chatos::odd"');
      expect(told).toContain(said);
      expect(server.calls).toBe(1);

      const kept = host.chat.get(first.conversationId).messages;
      expect(textsOf(kept)).toEqual(['user: remember this', 'assistant: Noted.', 'user: ask it', 'assistant: Asking.', 'tool: ', 'assistant: The server failed.']);
      expect(fileIsWhole(home, first.conversationId)).toBe(kept.length);
      await host.dispose();

      const again = createHost({ home, appRoot: repoRoot, builtinPluginsDir: tempDir(), defaultsDir: tempDir() });
      await again.start();
      try {
        expect(again.chat.get(first.conversationId).messages).toEqual(kept);
        expect(again.agents.get('helper')).toBeDefined();
      } finally {
        await again.dispose();
      }
    });
  }
});
