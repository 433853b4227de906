import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../src/core/chat/chatPolicy.js';
import type { AssistantMessage, ToolMessage } from '../../../src/shared/chat.js';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation.js';
import { answerOf, SCRIPTED_AGENT } from '../../helpers/acpAgent.js';
import { agentUsing, chatServerEntry, startChatWorld } from '../../helpers/chatWorld.js';
import { waitUntil } from '../../helpers/gatewayHost.js';
import { confirm, onAsked } from '../../helpers/questions.js';
import { tempDir } from '../../helpers/tempDir.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

/** Agents of kind `acp`: a real ACP agent program (the ACP SDK's agent side, scripted) over real stdio, the real gateway on loopback HTTP. */

async function acpWorld(host: { chat?: { maxAnswerChars: number }; scheduler?: TestScheduler } = {}) {
  const roots = tempDir('chatos-acp-roots-');
  fs.writeFileSync(path.join(roots, 'notes.txt'), 'inside the roots\n');
  const world = await startChatWorld({
    // `other` is configured but not granted to the ChatOS agent: the ACP agent must not see it.
    servers: { chat: chatServerEntry(), other: chatServerEntry() },
    host,
    agents: [agentUsing(['chat'], { id: 'coder', name: 'Coder', kind: 'acp', acp: { command: process.execPath, args: [SCRIPTED_AGENT] }, roots: [roots] })],
  });
  const events: ChatEvent[] = [];
  world.host.chat.onEvent((event) => events.push(event));
  return { ...world, roots, events };
}

describe('an agent of kind acp', () => {
  it('streams its message, thought and plan into the conversation, and keeps its session across turns', async () => {
    const { host, events } = await acpWorld();
    const first = await host.chat.send({ agentId: 'coder', text: 'hello' }).done;
    expect(first.status).toBe('done');
    const answer = first.messages.find((m): m is AssistantMessage => m.role === 'assistant')!;
    expect(answer).toMatchObject({ text: 'echo: hello (turn 1)', modelId: 'acp:coder', reasoning: { text: 'thinking about it' }, notices: ['Plan:\n[~] answer'] });
    expect(events.some((e) => e.type === 'delta' && e.messageId === answer.id && e.text === 'echo: hello (turn 1)')).toBe(true);
    const second = await host.chat.send({ conversationId: first.conversationId, text: 'again' }).done;
    // The same process and session answered: it counts its turns.
    expect(answerOf(second.messages)).toBe('echo: again (turn 2)');
  });

  it('reads a file inside the roots, and is refused /etc/passwd and a write outside them', async () => {
    const { host, roots } = await acpWorld();
    const inside = await host.chat.send({ agentId: 'coder', text: `read ${path.join(roots, 'notes.txt')}` }).done;
    expect(answerOf(inside.messages)).toBe('inside the roots\n');
    const card = inside.messages.find((m): m is ToolMessage => m.role === 'tool')!;
    expect(card).toMatchObject({ callId: 'r1', name: `Read ${path.join(roots, 'notes.txt')}`, status: 'ok', content: [{ type: 'text', text: 'inside the roots\n' }] });

    const passwd = await host.chat.send({ conversationId: inside.conversationId, text: 'read /etc/passwd' }).done;
    expect(answerOf(passwd.messages)).toMatch(/^refused: .*\/etc\/passwd is outside this conversation's workspace roots/);
    expect(answerOf(passwd.messages)).not.toContain('root:');

    const outside = path.join(tempDir('chatos-acp-outside-'), 'evil.txt');
    const write = await host.chat.send({ conversationId: inside.conversationId, text: `write ${outside} pwned` }).done;
    expect(answerOf(write.messages)).toMatch(/^refused: .*outside this conversation's workspace roots/);
    expect(fs.existsSync(outside)).toBe(false);
    // A link inside the roots that leads out is judged where it leads.
    fs.symlinkSync(path.dirname(outside), path.join(roots, 'out'));
    const viaLink = await host.chat.send({ conversationId: inside.conversationId, text: `write ${path.join(roots, 'out', 'evil.txt')} pwned` }).done;
    expect(answerOf(viaLink.messages)).toMatch(/^refused: /);
    expect(fs.existsSync(outside)).toBe(false);

    const written = await host.chat.send({ conversationId: inside.conversationId, text: `write ${path.join(roots, 'new.txt')} hello there` }).done;
    expect(answerOf(written.messages)).toBe('written');
    expect(fs.readFileSync(path.join(roots, 'new.txt'), 'utf8')).toBe('hello there');
  });

  it('asks the person for session/request_permission on the confirmation card: approved and declined', async () => {
    const { host, events } = await acpWorld();
    const questions: ToolConfirmationRequest[] = [];
    onAsked(host, 'toolConfirmation', (request) => {
      questions.push(request);
      confirm(host, request.id, questions.length === 1);
    });
    const approved = await host.chat.send({ agentId: 'coder', text: 'ask' }).done;
    expect(answerOf(approved.messages)).toBe('permission: yes');
    expect(questions[0]).toMatchObject({
      serverName: 'ACP agent Coder',
      toolName: 'acp_edit',
      args: { file: 'main.txt' },
      description: 'Edit main.txt',
      agentId: 'coder',
      conversationId: approved.conversationId,
    });
    expect(events.some((e) => e.type === 'toolCall' && e.call.callId === 'p1' && e.call.phase === 'awaiting' && e.call.confirmation?.id === questions[0]!.id)).toBe(true);
    const declined = await host.chat.send({ conversationId: approved.conversationId, text: 'ask' }).done;
    expect(answerOf(declined.messages)).toBe('permission: no');
    expect(declined.messages.find((m): m is ToolMessage => m.role === 'tool')).toMatchObject({ callId: 'p1', status: 'error' });
  });

  it('offers only the granted servers, through the gateway: a call is confirmed and audited there', async () => {
    const { host } = await acpWorld();
    const listed = await host.chat.send({ agentId: 'coder', text: 'mcp --list' }).done;
    const names = answerOf(listed.messages).split(',');
    expect(names).toContain('mcp_chat_echo');
    expect(names.filter((n) => n.startsWith('mcp_other_'))).toEqual([]);
    const refused = await host.chat.send({ conversationId: listed.conversationId, text: 'mcp mcp_other_echo {"text":"sneaky"}' }).done;
    expect(answerOf(refused.messages)).toMatch(/^error: /);
    expect(answerOf(refused.messages)).not.toContain('sneaky');
    const echoed = await host.chat.send({ conversationId: listed.conversationId, text: 'mcp mcp_chat_echo {"text":"via the gateway"}' }).done;
    expect(answerOf(echoed.messages)).toContain('via the gateway');
    await waitUntil(() => host.audit.query({ tool: 'mcp_chat_echo' }).length > 0, 'the call on the audit', 20_000);
    expect(host.audit.query({ tool: 'mcp_chat_echo' })[0]).toMatchObject({ agentId: 'coder', conversationId: listed.conversationId });
    // A sensitive tool asks the person first, as for the host's own model; declined, it never runs.
    onAsked(host, 'toolConfirmation', (request) => confirm(host, request.id, false));
    const danger = await host.chat.send({ conversationId: listed.conversationId, text: 'mcp mcp_chat_danger {"what":"the deed"}' }).done;
    expect(answerOf(danger.messages)).toMatch(/^error: /);
    expect(answerOf(danger.messages)).not.toContain('did the deed');
  });

  it('refuses terminals, and says so to the agent', async () => {
    const { host } = await acpWorld();
    const outcome = await host.chat.send({ agentId: 'coder', text: 'terminal' }).done;
    expect(answerOf(outcome.messages)).toMatch(/^refused: ChatOS runs no terminal/);
  });

  it('Stop sends session/cancel: the agent ends its turn as cancelled', async () => {
    const { host, events } = await acpWorld();
    const turn = host.chat.send({ agentId: 'coder', text: 'hang' });
    await waitUntil(() => events.some((e) => e.type === 'delta' && e.text === 'working'), 'the agent to start working', 20_000);
    expect(host.chat.stop(turn.conversationId)).toBe(true);
    const outcome = await turn.done;
    expect(outcome).toMatchObject({ status: 'stopped', stop: { kind: 'user' } });
    expect(answerOf(outcome.messages)).toBe('working');
    // The session lives on: the next turn is answered by the same process.
    const next = await host.chat.send({ conversationId: turn.conversationId, text: 'after' }).done;
    expect(answerOf(next.messages)).toBe('echo: after (turn 1)');
  });

  it('an agent that crashes or writes garbage: a clear stop in the conversation, the process ended', async () => {
    const { host } = await acpWorld();
    const crash = await host.chat.send({ agentId: 'coder', text: 'crash' }).done;
    expect(crash.stop).toMatchObject({ kind: 'error', code: 'ACP_AGENT_FAILED' });
    expect(crash.stop!.message).toContain('crashing as asked');
    const garbage = await host.chat.send({ conversationId: crash.conversationId, text: 'garbage' }).done;
    expect(garbage.stop).toMatchObject({ kind: 'error', code: 'ACP_AGENT_FAILED' });
    expect(garbage.stop!.message).toContain('not JSON-RPC');
    // Each failure ended the process; the next message starts the agent again.
    const again = await host.chat.send({ conversationId: crash.conversationId, text: 'hi' }).done;
    expect(answerOf(again.messages)).toBe('echo: hi (turn 1)');
    const stored = host.chat.get(crash.conversationId).messages.filter((m) => m.role === 'user').length;
    expect(stored).toBe(3);
  });

  it('an agent that floods its answer is cut at the bound and ended', async () => {
    const { host } = await acpWorld({ chat: { maxAnswerChars: 5_000 } });
    const flood = await host.chat.send({ agentId: 'coder', text: 'flood 50' }).done;
    expect(flood.stop).toMatchObject({ kind: 'answer-limit', code: 'ACP_ANSWER_LIMIT' });
    expect(answerOf(flood.messages).length).toBeLessThanOrEqual(5_000);
  });

  it('an agent that ignores session/cancel is ended after the grace; the next message starts it again', async () => {
    const scheduler = new TestScheduler();
    const { host, events } = await acpWorld({ scheduler });
    const turn = host.chat.send({ agentId: 'coder', text: 'stubborn' });
    await waitUntil(() => events.some((e) => e.type === 'delta' && e.text === 'never done'), 'the agent to start', 20_000);
    expect(host.chat.stop(turn.conversationId)).toBe(true);
    await scheduler.timerSet(10_000);
    scheduler.advance(10_000);
    const outcome = await turn.done;
    expect(outcome).toMatchObject({ status: 'stopped', stop: { kind: 'user' } });
    expect(answerOf(outcome.messages)).toBe('never done');
    const next = await host.chat.send({ conversationId: turn.conversationId, text: 'again' }).done;
    expect(answerOf(next.messages)).toBe('echo: again (turn 1)');
  });
});
