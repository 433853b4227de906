import { describe, expect, it } from 'vitest';
import { answerElicitation, onAsked } from '../../../helpers/questions.js';
import type { Host } from '../../../../src/core/host.js';
import { MAX_INPUT_ROUNDS, MAX_REQUEST_STATE_BYTES } from '../../../../src/core/mcp/client/modernClient.js';
import { formDefaults } from '../../../../src/shared/elicitation.js';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';
import { startModernWireServer } from '../../../helpers/modernWireServer.js';

/**
 * A server that answers the 2026-07-28 discovery is spoken to statelessly
 * (docs/rules/mcp-yaml.md#protocol-eras); what a call needs from the user
 * comes back inside its result (`input_required`), is asked through the
 * host's elicitation service, and is sent back with the server's
 * requestState. A server that breaks that era is stopped with a problem
 * naming it: one that says 2026 and answers as 2025, one that asks without
 * end, one whose requestState is too large to carry.
 */

/** The user: accepts every form as first shown (its defaults). */
function acceptEveryForm(host: Host): { asked: number } {
  const seen = { asked: 0 };
  onAsked(host, 'elicitation', (request) => {
    seen.asked++;
    answerElicitation(host, request.id, 'accept', request.mode === 'form' ? formDefaults(request.fields) : undefined);
  });
  return seen;
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: Error & { code?: string }) => ({ code: error.code, message: error.message }),
  );

describe('a server of the 2026-07-28 era', { timeout: 120_000 }, () => {
  it('is spoken to statelessly: its question reaches the user and the answer goes back with its requestState', async () => {
    const server = await startModernWireServer('asksOnce');
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { modern: { transport: 'streamable_http', url: server.url } }));
    const user = acceptEveryForm(host);
    const called = await host.tools.call(caller('conv-modern'), 'mcp_modern_ask', {});
    expect(textOf(called.result)).toBe('hello Ada; state kept');
    expect(user.asked).toBe(1);
    expect(server.calls).toBe(2);
    // Every request carried the revision in its header; no initialize was sent (the server answers none).
    expect(server.versions.every((version) => version === '2026-07-28')).toBe(true);
  });

  it('that then answers as a 2025 server fails its start with a problem naming it', async () => {
    const server = await startModernWireServer('answersLike2025');
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { mixed: { transport: 'streamable_http', url: server.url } }));
    const listed = await host.tools.list(caller('conv-mixed'));
    expect(listed.tools.filter((tool) => tool.serverId === 'chatos::mixed')).toEqual([]);
    const problems = listed.problems.map((problem) => problem.message).join('\n');
    expect(problems).toContain('server "chatos::mixed" said it speaks MCP 2026-07-28 (server/discover) and then did not answer as a 2026-07-28 server');
  });

  it(`that asks without end is stopped after ${MAX_INPUT_ROUNDS} rounds, naming it`, async () => {
    const server = await startModernWireServer('asksForever');
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { asker: { transport: 'streamable_http', url: server.url } }));
    const user = acceptEveryForm(host);
    const failed = await failureOf(host.tools.call(caller('conv-asker'), 'mcp_asker_ask', {}));
    expect(failed?.message).toContain(`call to ask on "chatos::asker" ended: the server asked for more input ${MAX_INPUT_ROUNDS} times in a row`);
    // The first call and one resend per round answered, no more.
    expect(server.calls).toBe(MAX_INPUT_ROUNDS + 1);
    expect(user.asked).toBe(MAX_INPUT_ROUNDS);
  });

  it('that mixes the eras, asking with a 2025 request mid-call, ends the call at once, naming it', async () => {
    const server = await startModernWireServer('mixes');
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { mixer: { transport: 'streamable_http', url: server.url } }));
    const user = acceptEveryForm(host);
    const failed = await failureOf(host.tools.call(caller('conv-mixer'), 'mcp_mixer_ask', {}));
    expect(failed?.code).toBe('SERVER_MISBEHAVED');
    expect(failed?.message).toContain('server "chatos::mixer" speaks MCP 2026-07-28 and sent a elicitation/create request as a 2025 server does');
    expect(user.asked).toBe(0);
  });

  for (const [what, stateBytes, expected] of [
    ['of 1 MiB (more than a client carries between rounds)', 1024 * 1024, `server "chatos::stateful" sent a requestState of 1024 KiB, more than the ${MAX_REQUEST_STATE_BYTES / 1024} KiB`],
    ['of 10 MB (more than one message may hold)', 10 * 1024 * 1024, 'was larger than 4 MiB (the limit of one MCP message)'],
  ] as const) {
    it(`whose requestState is ${what} ends the call, naming it, and asks nothing`, async () => {
      const server = await startModernWireServer('hugeState', { stateBytes });
      const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { stateful: { transport: 'streamable_http', url: server.url } }));
      const user = acceptEveryForm(host);
      const failed = await failureOf(host.tools.call(caller('conv-state'), 'mcp_stateful_ask', {}));
      expect(failed?.message).toContain('"chatos::stateful"');
      expect(failed?.message).toContain(expected);
      expect(server.calls).toBe(1);
      expect(user.asked).toBe(0);
    });
  }
});
