import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { answerElicitation, onResolved, pendingOf } from '../../helpers/questions.js';
import { describe, expect, it } from 'vitest';
import type { QuestionAuditEvent } from '../../../src/core/audit/questionAudit.js';
import { ElicitationService, type ElicitationAnswer } from '../../../src/core/elicitation/elicitationService.js';
import { ServerRequestPolicy } from '../../../src/core/policy/serverRequestPolicy.js';
import { RUN_ALLOWED } from '../../../src/core/policy/runGate.js';
import { ServerCallers } from '../../../src/core/tools/serverCallers.js';
import type { Caller } from '../../../src/core/tools/toolSource.js';
import type { ElicitationAction } from '../../../src/shared/elicitation.js';
import type { QuestionOutcome } from '../../../src/shared/question.js';
import { QuestionBroker } from '../../../src/core/questions/questionBroker.js';
import { testServerDefinition } from '../../helpers/serverDefinition.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

/** The service alone, on a clock the test moves: limits per server, withdrawal, and what the audit is told. */

const asker = (name = 'fx') => ({ definition: testServerDefinition(name), lease: 'conv-1' });
const who: Caller = { appId: 'notes', agentId: 'writer', conversationId: 'conv-1', flow: 'main' };
const form = { message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string', default: 'Ada' } } } };

function service() {
  const scheduler = new TestScheduler();
  const audit: QuestionAuditEvent[] = [];
  const broker = new QuestionBroker({ scheduler, audit: (event) => audit.push(event) });
  const service = new ElicitationService({ scheduler, broker });
  const host = { questions: broker };
  const outcomes: QuestionOutcome[] = [];
  onResolved(host, 'elicitation', (_r, outcome) => outcomes.push(outcome));
  const ask = (name = 'fx', signal = new AbortController().signal, params: Record<string, unknown> = form): Promise<ElicitationAnswer> =>
    service.ask({ asker: asker(name), params, callers: [who], signal });
  /** The questions as a face sees and answers them. */
  const elicitations = {
    list: () => pendingOf(host, 'elicitation'),
    respond: (id: string, action: ElicitationAction, content?: unknown) => answerElicitation(host, id, action, content),
    withdrawAll: () => broker.withdrawAll(),
  };
  return { scheduler, audit, elicitations, outcomes, ask };
}

async function refusal(answer: () => Promise<unknown>): Promise<string> {
  try {
    await answer();
  } catch (error) {
    if (error instanceof McpError) return error.message;
    throw error;
  }
  throw new Error('not refused');
}

describe('ElicitationService', () => {
  it('puts a question with who asked, and answers the server with the checked content', async () => {
    const { elicitations, ask, audit } = service();
    const answer = ask();
    const [request] = elicitations.list();
    expect(request).toMatchObject({ mode: 'form', serverId: 'chatos::fx', conversationId: 'conv-1', agentId: 'writer', fields: [{ name: 'name', default: 'Ada' }] });
    expect(elicitations.respond(request!.id, 'accept', { name: 'Grace', extra: 'dropped' })).toBe(true);
    expect(await answer).toEqual({ action: 'accept', content: { name: 'Grace' } });
    expect(audit.map((e) => e.step)).toEqual([{ kind: 'asked' }, { kind: 'ended', outcome: 'accept' }]);
    expect(audit[1]).toMatchObject({ what: { mode: 'form', fields: ['name'] }, caller: who });
    expect(JSON.stringify(audit)).not.toContain('Grace');
  });

  it('lets a server have one question waiting at a time, and ask at most 20 a minute', async () => {
    const { elicitations, ask, scheduler, audit } = service();
    const first = ask();
    expect(await refusal(() => ask())).toMatch(/server "chatos::fx" already has a question waiting for the user; ask one at a time/);
    // Another server is not held up by this one.
    void ask('other');
    expect(elicitations.list().map((r) => r.serverId)).toEqual(['chatos::fx', 'chatos::other']);
    elicitations.respond(elicitations.list()[0]!.id, 'decline');
    expect(await first).toEqual({ action: 'decline' });

    for (let i = 0; i < 19; i++) {
      const answer = ask();
      elicitations.respond(elicitations.list().find((r) => r.serverId === 'chatos::fx')!.id, 'cancel');
      expect(await answer).toEqual({ action: 'cancel' });
    }
    // 20 asked in this minute (a question refused for the limit is not one): the next is refused, recorded once however often it is tried.
    expect(await refusal(() => ask())).toMatch(/asked 20 questions in the last minute; at most 20/);
    expect(await refusal(() => ask())).toMatch(/at most 20/);
    expect(audit.filter((e) => e.step.kind === 'refused' && e.step.code === 'RATE_LIMITED')).toHaveLength(2);
    scheduler.advance(60_001);
    const later = ask();
    expect(elicitations.list().filter((r) => r.serverId === 'chatos::fx')).toHaveLength(1);
    elicitations.withdrawAll();
    expect(await later).toEqual({ action: 'cancel' });
  });

  it('withdraws a question when the call that asked ends (its signal), and answers cancel', async () => {
    const { elicitations, ask, outcomes } = service();
    const call = new AbortController();
    const answer = ask('fx', call.signal);
    const [request] = elicitations.list();
    call.abort();
    expect(await answer).toEqual({ action: 'cancel' });
    expect(outcomes).toEqual(['withdrawn']);
    expect(elicitations.respond(request!.id, 'accept', {})).toBe(false);
  });

  it('refuses a bad form or url with the reason, and records it', async () => {
    const { ask, audit } = service();
    expect(await refusal(() => ask('fx', undefined, { message: 'Key?', requestedSchema: { type: 'object', properties: { apiKey: { type: 'string' } } } }))).toMatch(
      /ChatOS refused the elicitation: field "apiKey" looks like it asks for a password/,
    );
    expect(await refusal(() => ask('fx', undefined, { mode: 'url', message: 'Open', url: 'file:///etc/passwd', elicitationId: 'e1' }))).toMatch(/scheme "file:" is refused/);
    expect(await refusal(() => ask('fx', undefined, { mode: 'telepathy', message: 'Hi' }))).toMatch(/mode "telepathy" is neither "form" nor "url"/);
    expect(audit.map((e) => e.step.kind === 'refused' && e.step.code)).toEqual(['ELICITATION_REFUSED', 'ELICITATION_REFUSED', 'ELICITATION_REFUSED']);
  });
});

describe('ServerRequestPolicy', () => {
  it('lets a server ask only while a granted caller has a call in flight on that instance, and never for a plugin that may not run', () => {
    const callers = new ServerCallers();
    const refused: string[] = [];
    let pluginMayRun = true;
    const policy = new ServerRequestPolicy({
      callers,
      granted: (appId) => appId !== 'stranger',
      runnable: () => (pluginMayRun ? RUN_ALLOWED : { ok: false, code: 'PLUGIN_UNTRUSTED', message: 'plugin "p" is not trusted', fix: 'chatos trust p' }),
      refused: (_asker, _method, code) => refused.push(code),
    });
    const fx = asker();
    expect(policy.mayAsk(fx, 'elicitation/create')).toEqual({ ok: false, reason: expect.stringMatching(/has no tool call in flight/) });
    const end = callers.begin('chatos::fx', 'conv-1', who);
    expect(policy.mayAsk(fx, 'elicitation/create')).toEqual({ ok: true });
    // Another conversation's instance of the same server is idle.
    expect(policy.mayAsk({ ...fx, lease: 'conv-2' }, 'elicitation/create').ok).toBe(false);
    const idle = callers.idleSignal('chatos::fx', 'conv-1');
    const stranger = callers.begin('chatos::fx', 'conv-1', { ...who, appId: 'stranger' });
    expect(policy.mayAsk(fx, 'elicitation/create')).toEqual({ ok: false, reason: expect.stringMatching(/not granted to stranger/) });
    stranger();
    pluginMayRun = false;
    expect(policy.mayAsk(fx, 'elicitation/create')).toEqual({ ok: false, reason: expect.stringMatching(/plugin that may not run \(plugin "p" is not trusted\)/) });
    expect(idle.aborted).toBe(false);
    end();
    expect(idle.aborted).toBe(true);
    expect(refused).toEqual(['IDLE_SERVER', 'IDLE_SERVER', 'NOT_GRANTED', 'NOT_RUNNABLE']);
  });
});
