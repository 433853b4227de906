import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../../src/core/chat/chatPolicy.js';
import type { AcpTerminalLevel } from '../../../src/shared/agents.js';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation.js';
import { answerOf, SCRIPTED_AGENT } from '../../helpers/acpAgent.js';
import { chatServerEntry, startChatWorld } from '../../helpers/chatWorld.js';
import { confirm, onAsked } from '../../helpers/questions.js';
import { tempDir } from '../../helpers/tempDir.js';

/**
 * `terminal/*` of an ACP agent (docs/using/acp.md#terminals): a real ACP agent (the SDK's agent side, scripted) over
 * real stdio asks the host to run real commands. Off, nothing runs and nothing is offered; at `ask`, each command is
 * the person's to approve on the confirmation card, runs only inside the roots, never with a variable that decides
 * which code runs, with its output bounded, and its whole tree ends with the turn's Stop.
 */

async function terminalWorld(terminal: AcpTerminalLevel | undefined) {
  const roots = tempDir('chatos-acp-term-');
  const outside = tempDir('chatos-acp-term-outside-');
  const world = await startChatWorld({
    servers: { chat: chatServerEntry() },
    agents: [{ id: 'coder', name: 'Coder', kind: 'acp', acp: { command: process.execPath, args: [SCRIPTED_AGENT], ...(terminal ? { terminal } : {}) }, roots: [roots] }],
  });
  const questions: ToolConfirmationRequest[] = [];
  const events: ChatEvent[] = [];
  world.host.chat.onEvent((event) => events.push(event));
  const term = async (request: Record<string, unknown>, conversationId?: string) => {
    const text = `term ${JSON.stringify(request)}`;
    const outcome = await world.host.chat.send(conversationId ? { conversationId, text } : { agentId: 'coder', text }).done;
    return { conversationId: outcome.conversationId, answer: answerOf(outcome.messages), messages: outcome.messages };
  };
  /** Answers every terminal question as given, keeping each. */
  const answerWith = (approved: boolean) =>
    onAsked(world.host, 'toolConfirmation', (request) => {
      questions.push(request);
      confirm(world.host, request.id, approved);
    });
  return { ...world, roots, outside, questions, events, term, answerWith };
}

/** A node one-liner as a terminal request: what it prints is its answer. */
const node = (script: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: ['-e', script], wait: true, ...extra });

/** The host's own descendants whose command line holds `token`: ps, not the code under test's /proc reader. */
function descendantsWith(token: string): number[] {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null && !m[3]!.startsWith('Z'))
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[4]! }));
  const found: number[] = [];
  const queue = [process.pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const row of rows)
      if (row.ppid === parent) {
        queue.push(row.pid);
        if (row.args.includes(token)) found.push(row.pid);
      }
  }
  return found;
}

describe('terminal requests of an ACP agent', () => {
  it('off (the default): refused with the reason, never asked, and not offered at initialize', async () => {
    const { host, term, answerWith, questions, roots } = await terminalWorld(undefined);
    answerWith(true);
    const marker = path.join(roots, 'ran');
    const { answer } = await term(node(`require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`));
    expect(answer).toMatch(/^refused: ChatOS runs no terminal for this ACP agent.*clientCapabilities\.terminal is false/);
    expect(questions).toEqual([]);
    expect(fs.existsSync(marker)).toBe(false);
    expect(host.audit.query({ tool: 'acp_terminal' })).toEqual([]);
    expect(answerOf((await host.chat.send({ agentId: 'coder', text: 'caps' }).done).messages)).toBe('terminal: false');
  });

  it('ask: the exact command, arguments and cwd on the card; approved runs in the minimal environment, declined does not run', async () => {
    const { host, term, answerWith, questions, roots, events } = await terminalWorld('ask');
    process.env.ACP_TERM_HOST_SECRET = 'of the host';
    try {
      const off = answerWith(true);
      const script = 'process.stdout.write([process.cwd(), process.env.GREETING, process.env.ACP_TERM_HOST_SECRET ?? "unset"].join("|"))';
      const run = await term(node(script, { env: [{ name: 'GREETING', value: 'hello' }] }));
      expect(answerOf((await host.chat.send({ conversationId: run.conversationId, text: 'caps' }).done).messages)).toBe('terminal: true');
      expect(JSON.parse(run.answer)).toEqual({ exitCode: 0, output: `${fs.realpathSync(roots)}|hello|unset`, truncated: false });
      expect(questions[0]).toMatchObject({
        toolName: 'acp_terminal',
        agentId: 'coder',
        conversationId: run.conversationId,
        risk: 'high',
        args: { command: process.execPath, args: ['-e', script], cwd: fs.realpathSync(roots), env: { GREETING: 'hello' } },
      });
      expect(events.some((e) => e.type === 'toolCall' && e.call.phase === 'awaiting' && e.call.confirmation?.id === questions[0]!.id)).toBe(true);
      off();
      answerWith(false);
      const marker = path.join(roots, 'declined');
      const declined = await term(node(`require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`), run.conversationId);
      expect(declined.answer).toBe('refused: the command was not run: the user did not allow it (declined)');
      expect(fs.existsSync(marker)).toBe(false);
      await expect
        .poll(() =>
          host.audit
            .query({ tool: 'acp_terminal' })
            .map((r) => [r.decision, r.outcome])
            .sort(),
        )
        .toEqual([
          ['approved', 'ok'],
          ['declined', 'declined'],
        ]);
      expect(host.audit.query({ tool: 'acp_terminal' })[0]).toMatchObject({ agentId: 'coder', conversationId: run.conversationId });
    } finally {
      delete process.env.ACP_TERM_HOST_SECRET;
    }
  });

  it('approved for this conversation: its next commands run unasked there, and are asked again in another', async () => {
    const { host, term } = await terminalWorld('ask');
    const questions: ToolConfirmationRequest[] = [];
    onAsked(host, 'toolConfirmation', (request) => {
      questions.push(request);
      confirm(host, request.id, true, 'conversation');
    });
    const first = await term(node('process.stdout.write("one")'));
    const second = await term(node('process.stdout.write("two")'), first.conversationId);
    expect([first.answer, second.answer].map((a) => JSON.parse(a).output)).toEqual(['one', 'two']);
    expect(questions).toHaveLength(1);
    const elsewhere = await term(node('process.stdout.write("three")'));
    expect(JSON.parse(elsewhere.answer).output).toBe('three');
    expect(questions).toHaveLength(2);
  });

  it('a cwd outside the roots, or a link inside that leads out, is refused before anyone is asked', async () => {
    const { term, answerWith, questions, roots, outside } = await terminalWorld('ask');
    answerWith(true);
    const out = await term(node('1', { cwd: outside }));
    expect(out.answer).toMatch(/^refused: the cwd .* is outside this conversation's workspace roots/);
    fs.symlinkSync(outside, path.join(roots, 'escape'));
    const viaLink = await term(node('1', { cwd: path.join(roots, 'escape') }), out.conversationId);
    expect(viaLink.answer).toMatch(/^refused: the cwd .*escape is outside this conversation's workspace roots/);
    expect(questions).toEqual([]);
  });

  it('a variable that decides which code runs (LD_PRELOAD, NODE_OPTIONS, PATH) is refused before anyone is asked', async () => {
    const { host, term, answerWith, questions, roots } = await terminalWorld('ask');
    answerWith(true);
    const marker = path.join(roots, 'preloaded');
    let conversationId: string | undefined;
    for (const [name, value] of [
      ['LD_PRELOAD', '/tmp/evil.so'],
      ['NODE_OPTIONS', `--require ${marker}`],
      ['path', '/tmp'],
    ] as const) {
      const refused = await term(node('1', { env: [{ name, value }] }), conversationId);
      conversationId = refused.conversationId;
      expect(refused.answer).toMatch(new RegExp(`^refused: the host sets no ${name} for a command`));
    }
    expect(questions).toEqual([]);
    await expect.poll(() => host.audit.query({ tool: 'acp_terminal' }).filter((r) => r.decision === 'refused').length).toBe(3);
  });

  it('output past outputByteLimit keeps its tail, at a character boundary, and says it was truncated', async () => {
    const { term, answerWith } = await terminalWorld('ask');
    answerWith(true);
    // 3000 bytes: "é" (2 bytes) a thousand times, then 1000 "z"; a limit of 1001 cuts inside an "é", which is dropped whole.
    const { answer } = await term(node('process.stdout.write("é".repeat(1000) + "z".repeat(1000))', { outputByteLimit: 1001 }));
    const { output, truncated } = JSON.parse(answer) as { output: string; truncated: boolean };
    expect(truncated).toBe(true);
    expect(output).toBe('z'.repeat(1000));
  });

  it('a command that never ends is ended with everything it started when the turn is stopped', async () => {
    const { host, answerWith, events } = await terminalWorld('ask');
    answerWith(true);
    const token = 'acp-term-never-ends';
    const request = { command: '/bin/sh', args: ['-c', 'sleep 3600 & sleep 3600 & wait', token] };
    const turn = host.chat.send({ agentId: 'coder', text: `term ${JSON.stringify(request)}` });
    await expect.poll(() => events.some((e) => e.type === 'delta' && e.text.startsWith('started term-'))).toBe(true);
    // The shell (its script names them) and its two sleeps, all under the host.
    await expect.poll(() => descendantsWith('sleep 3600').length).toBe(3);
    expect(host.chat.stop(turn.conversationId)).toBe(true);
    expect(await turn.done).toMatchObject({ status: 'stopped', stop: { kind: 'user' } });
    await expect.poll(() => descendantsWith('sleep 3600').length).toBe(0);
    await expect.poll(() => host.audit.query({ tool: 'acp_terminal' }).map((r) => r.outcome)).toEqual(['cancelled']);
  });

  it('a command still running when the agent exits is ended with it', async () => {
    const { host, answerWith } = await terminalWorld('ask');
    answerWith(true);
    const request = { command: '/bin/sh', args: ['-c', 'sleep 3601 & sleep 3601 & wait'], crash: true };
    const outcome = await host.chat.send({ agentId: 'coder', text: `term ${JSON.stringify(request)}` }).done;
    expect(outcome.stop).toMatchObject({ kind: 'error', code: 'ACP_AGENT_FAILED' });
    await expect.poll(() => descendantsWith('sleep 3601').length).toBe(0);
  });

  it('a command left running after its turn is ended when the conversation is deleted', async () => {
    const { host, answerWith } = await terminalWorld('ask');
    answerWith(true);
    const request = { command: '/bin/sh', args: ['-c', 'sleep 3602 & sleep 3602 & wait'], leave: true };
    const outcome = await host.chat.send({ agentId: 'coder', text: `term ${JSON.stringify(request)}` }).done;
    expect(outcome.status).toBe('done');
    // The turn is over and the command goes on, until the conversation ends.
    await expect.poll(() => descendantsWith('sleep 3602').length).toBe(3);
    await host.chat.delete(outcome.conversationId);
    await expect.poll(() => descendantsWith('sleep 3602').length).toBe(0);
  });
});
