import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/core/host.js';
import type { AssistantMessage } from '../../../src/shared/chat.js';
import { answerOf, SCRIPTED_AGENT } from '../../helpers/acpAgent.js';
import { chatServerEntry, startChatWorld } from '../../helpers/chatWorld.js';
import type { TestHost } from '../../helpers/gatewayHost.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

/**
 * Resuming an ACP agent's session (docs/using/acp.md#resuming): the host quits, its agents' processes end with it; a
 * new host on the same data home reopens the conversation and resumes the agent's session with `session/load` where
 * the agent offers it, else starts a new one and says so in the conversation.
 */

const restarted: Host[] = [];
afterEach(async () => {
  for (const host of restarted.splice(0)) await host.dispose();
});

/** The host quits; a new one starts on the same data home (as the app started again). */
async function restart(world: TestHost): Promise<Host> {
  await world.host.dispose();
  const host = createHost({
    home: world.home,
    appRoot: repoRoot,
    builtinPluginsDir: tempDir('chatos-acp-builtin-'),
    defaultsDir: tempDir('chatos-acp-defaults-'),
    extraPluginRoots: [world.pluginRoot],
    sessionRoot: world.sessionRoot,
    projectRoot: world.projectRoot,
  });
  restarted.push(host);
  await host.start();
  return host;
}

async function resumeWorld(loadSession: boolean) {
  const roots = tempDir('chatos-acp-resume-');
  return startChatWorld({
    servers: { chat: chatServerEntry() },
    agents: [
      {
        id: 'coder',
        name: 'Coder',
        kind: 'acp',
        acp: { command: process.execPath, args: [SCRIPTED_AGENT], env: loadSession ? { SCRIPTED_ACP_LOAD_SESSION: '1' } : {} },
        roots: [roots],
      },
    ],
  });
}

const lastAnswer = (messages: readonly { role: string }[]) => messages.filter((m): m is AssistantMessage => m.role === 'assistant').at(-1)!;

describe('reopening a conversation with an ACP agent after the host restarted', () => {
  it('resumes the agent session with session/load when the agent offers it; its replay is not written again', async () => {
    const world = await resumeWorld(true);
    const first = await world.host.chat.send({ agentId: 'coder', text: 'hello' }).done;
    expect(answerOf(first.messages)).toBe('echo: hello (turn 1)');
    const sessionId = world.host.chat.get(first.conversationId).conversation.acpSession!.sessionId;

    const host = await restart(world);
    const again = await host.chat.send({ conversationId: first.conversationId, text: 'again' }).done;
    expect(answerOf(again.messages)).toBe(`echo: again (turn 1, loaded ${sessionId})`);
    expect(lastAnswer(again.messages).notices ?? []).toEqual(['Plan:\n[~] answer']);
    const stored = host.chat.get(first.conversationId).messages;
    expect(answerOf(stored)).not.toContain('replayed history');
    expect(host.chat.get(first.conversationId).conversation.acpSession!.sessionId).toBe(sessionId);
  });

  it('starts a new session when the agent offers no session/load, and says so in the conversation', async () => {
    const world = await resumeWorld(false);
    const first = await world.host.chat.send({ agentId: 'coder', text: 'hello' }).done;
    const before = world.host.chat.get(first.conversationId).conversation.acpSession!.sessionId;

    const host = await restart(world);
    const again = await host.chat.send({ conversationId: first.conversationId, text: 'again' }).done;
    expect(answerOf(again.messages)).toBe('echo: again (turn 1)');
    expect(lastAnswer(again.messages).notices![0]).toMatch(/earlier session could not be resumed \(it does not offer session\/load\): this is a new session/);
    const after = host.chat.get(first.conversationId).conversation.acpSession!.sessionId;
    expect(after).not.toBe(before);
    // Only the first turn after the restart says it: the next is in the new session.
    const third = await host.chat.send({ conversationId: first.conversationId, text: 'more' }).done;
    expect(answerOf(third.messages)).toBe('echo: more (turn 2)');
    expect(lastAnswer(third.messages).notices).toEqual(['Plan:\n[~] answer']);
  });
});
