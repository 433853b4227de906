import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';
import type { AgentInput } from '../../../src/shared/agents.js';
import type { AssistantMessage, ToolMessage } from '../../../src/shared/chat.js';
import { SCRIPTED_AGENT } from '../../helpers/acpAgent.js';
import { agentUsing, chatServerEntry, startChatWorld, toolResultsIn } from '../../helpers/chatWorld.js';
import { isAlive, waitUntil } from '../../helpers/gatewayHost.js';
import { tempDir } from '../../helpers/tempDir.js';

/**
 * A sub-agent of kind `acp` (docs/using/acp.md#stop-failures-bad-agents): a model agent delegates to it through the
 * gateway's sub-agent tool, in the real host; its program answers in the child conversation, its answer is the
 * tool's result the parent's model reads, and its process ends with the run.
 */

async function delegationWorld(trusted = true) {
  const roots = tempDir('chatos-acp-sub-');
  const marker = path.join(roots, 'started.log');
  const coder: AgentInput = { id: 'coder', name: 'Coder', kind: 'acp', acp: { command: process.execPath, args: [SCRIPTED_AGENT], env: { SCRIPTED_ACP_MARKER: marker } }, roots: [roots] };
  const world = await startChatWorld({ servers: { chat: chatServerEntry() }, agents: [agentUsing(['chat'], { subAgents: ['coder'] })] });
  // Trusted as the person's face saves it; else written around it, as another program would.
  if (trusted) world.host.agents.create(coder);
  else internalsOf(world.host).agents.agents.create(coder);
  const pids = () => (fs.existsSync(marker) ? [...fs.readFileSync(marker, 'utf8').matchAll(/started (\d+)/g)].map((m) => Number(m[1])) : []);
  return { ...world, pids };
}

const toolResult = (messages: readonly { role: string }[], callId: string) => messages.find((m): m is ToolMessage => m.role === 'tool' && (m as ToolMessage).callId === callId)!;

describe('a sub-agent of kind acp', () => {
  it("runs its program in the child conversation; its answer is the parent's tool result; its process ends with the run", async () => {
    const { host, provider, pids } = await delegationWorld();
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd1', name: 'subagent_coder', arguments: { task: 'hello from the parent' } }] }, { kind: 'reply', text: 'the coder answered' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'ask the coder' }).done;
    expect(outcome.status).toBe('done');
    const result = toolResult(outcome.messages, 'd1');
    expect(result).toMatchObject({ status: 'ok', content: [{ type: 'text', text: 'echo: hello from the parent (turn 1)' }] });
    // The parent's model read the ACP agent's answer.
    expect(toolResultsIn(provider.requests.at(-1)!.body)).toEqual([['d1', 'echo: hello from the parent (turn 1)']]);
    // The child conversation holds the ACP agent's own message.
    const child = host.chat.list({ includeChildren: true }).find((c) => c.parent?.conversationId === outcome.conversationId)!;
    expect(child.agentId).toBe('coder');
    const answer = host.chat.get(child.id).messages.find((m): m is AssistantMessage => m.role === 'assistant')!;
    expect(answer).toMatchObject({ modelId: 'acp:coder', text: 'echo: hello from the parent (turn 1)', reasoning: { text: 'thinking about it' } });
    // The run is over: its program is not left running until the host quits.
    expect(pids()).toHaveLength(1);
    await waitUntil(() => !isAlive(pids()[0]!), 'the sub-agent program to end');
  });

  it('an untrusted ACP sub-agent is refused at spawn: the parent reads why, nothing started', async () => {
    const { host, provider, pids } = await delegationWorld(false);
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd1', name: 'subagent_coder', arguments: { task: 'run' } }] }, { kind: 'reply', text: 'it was refused' });
    const outcome = await host.chat.send({ agentId: 'helper', text: 'ask the coder' }).done;
    const result = toolResult(outcome.messages, 'd1');
    expect(result.status).toBe('error');
    expect(result.content[0]).toMatchObject({ text: expect.stringMatching(/The sub-agent "coder" stopped: the program of ACP agent "coder" .* is not trusted/) });
    expect(pids()).toEqual([]);
  });

  it("Stop of the parent cancels the ACP sub-agent's turn (session/cancel) and ends its program", async () => {
    const { host, provider, pids } = await delegationWorld();
    const working = new Promise<void>((resolve) => host.chat.onEvent((e) => e.type === 'delta' && e.text === 'working' && resolve()));
    provider.enqueue({ kind: 'reply', toolCalls: [{ id: 'd1', name: 'subagent_coder', arguments: { task: 'hang' } }] });
    const turn = host.chat.send({ agentId: 'helper', text: 'ask the coder to wait' });
    await working;
    expect(host.chat.stop(turn.conversationId)).toBe(true);
    const outcome = await turn.done;
    expect(outcome).toMatchObject({ status: 'stopped', stop: { kind: 'user' } });
    expect(toolResult(outcome.messages, 'd1').status).toBe('cancelled');
    await waitUntil(() => !isAlive(pids()[0]!), 'the sub-agent program to end');
  });
});
