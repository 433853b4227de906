import { describe, expect, it } from 'vitest';
import { questionDraft, type QuestionAuditEvent } from '../../../src/core/audit/questionAudit.js';
import { QuestionBroker, type QuestionHandler } from '../../../src/core/questions/questionBroker.js';
import type { QuestionChange, QuestionOf, QuestionOutcome } from '../../../src/shared/question.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

const MINUTE = 60_000;

/** A url question of a server (the smallest request of a kind the broker audits), asked now with a clock of `ms`. */
function urlQuestion(scheduler: TestScheduler, id: string, ms = MINUTE): QuestionOf<'elicitation'> {
  const now = scheduler.now();
  return {
    kind: 'elicitation',
    call: { conversationId: 'conv', callId: `call-${id}` },
    request: {
      id,
      serverId: 'srv',
      serverName: 'Server',
      message: 'Open it',
      mode: 'url',
      url: 'https://example.com/',
      domain: 'example.com',
      lookAlike: false,
      conversationId: 'c1',
      createdAt: now,
      expiresAt: now + ms,
    },
  };
}

/** A broker on a test clock, with what it told faces and the audit, and a handler that ends a question with the answer's action. */
function world() {
  const scheduler = new TestScheduler();
  const audit: QuestionAuditEvent[] = [];
  const broker = new QuestionBroker({ scheduler, audit: (event) => audit.push(event) });
  const changes: QuestionChange[] = [];
  broker.on((change) => changes.push(change));
  const ended = new Map<string, QuestionOutcome>();
  const handler = (id: string): QuestionHandler<'elicitation'> => ({
    answer: (answer) => broker.end(id, answer.action),
    ended: (outcome) => {
      expect(ended.has(id)).toBe(false);
      ended.set(id, outcome);
    },
    audit: () => ({ method: 'elicitation/create', serverId: 'srv', what: { mode: 'url', domain: 'example.com' } }),
  });
  const ask = (id: string, options: { ms?: number; signal?: AbortSignal } = {}) =>
    broker.ask(urlQuestion(scheduler, id, options.ms), { handler: handler(id), ...(options.signal ? { signal: options.signal } : {}) });
  return { scheduler, broker, audit, changes, ended, ask };
}

describe('QuestionBroker (docs/rules/questions.md)', () => {
  it('ends a question nobody answers at its expiresAt, on the host clock, and not a moment before', () => {
    const { scheduler, broker, ended, changes, ask } = world();
    ask('q1', { ms: MINUTE });
    scheduler.advance(MINUTE - 1);
    expect(broker.list().map((q) => q.request.id)).toEqual(['q1']);
    expect(ended.size).toBe(0);
    scheduler.advance(1);
    expect(ended.get('q1')).toBe('expired');
    expect(broker.list()).toEqual([]);
    expect(changes.map((c) => [c.change, c.change === 'resolved' ? c.outcome : undefined])).toEqual([
      ['asked', undefined],
      ['resolved', 'expired'],
    ]);
    // Answered after it expired: refused, nothing ends twice.
    expect(broker.respond('q1', { kind: 'elicitation', action: 'accept' })).toBe(false);
  });

  it('refuses a second answer: the first one ended the question', () => {
    const { broker, ended, ask } = world();
    ask('q1');
    expect(broker.respond('q1', { kind: 'elicitation', action: 'decline' })).toBe(true);
    expect(broker.respond('q1', { kind: 'elicitation', action: 'accept' })).toBe(false);
    expect(ended.get('q1')).toBe('decline');
  });

  it('refuses an answer of another kind, and the question stays', () => {
    const { broker, ended, ask } = world();
    ask('q1');
    expect(broker.respond('q1', { kind: 'toolConfirmation', approved: true })).toBe(false);
    expect(broker.list()).toHaveLength(1);
    expect(ended.size).toBe(0);
  });

  it('withdraws a question when the asker stops waiting, and its clock with it', () => {
    const { scheduler, broker, ended, ask } = world();
    const call = new AbortController();
    ask('q1', { signal: call.signal });
    call.abort();
    expect(ended.get('q1')).toBe('withdrawn');
    scheduler.advance(2 * MINUTE);
    expect(ended.get('q1')).toBe('withdrawn');
    expect(broker.respond('q1', { kind: 'elicitation', action: 'accept' })).toBe(false);
  });

  it('withdraws at once a question whose asker already stopped', () => {
    const { broker, ended, ask } = world();
    ask('q1', { signal: AbortSignal.abort() });
    expect(ended.get('q1')).toBe('withdrawn');
    expect(broker.list()).toEqual([]);
  });

  it('withdraws by id and all at once (the host closing)', () => {
    const { broker, ended, ask } = world();
    ask('q1');
    ask('q2');
    ask('q3');
    expect(broker.withdraw('q2')).toBe(true);
    expect(broker.withdraw('q2')).toBe(false);
    broker.withdrawAll();
    expect([...ended]).toEqual([
      ['q2', 'withdrawn'],
      ['q1', 'withdrawn'],
      ['q3', 'withdrawn'],
    ]);
  });

  it('lists questions oldest first, each expiring on its own clock', () => {
    const { scheduler, broker, ended, ask } = world();
    ask('late', { ms: 3 * MINUTE });
    scheduler.advance(1000);
    ask('early', { ms: MINUTE });
    ask('middle', { ms: 2 * MINUTE });
    expect(broker.list().map((q) => q.request.id)).toEqual(['late', 'early', 'middle']);
    scheduler.advance(3 * MINUTE);
    expect([...ended.keys()]).toEqual(['early', 'middle', 'late']);
  });

  it('moves a question on: faces hear the update, its clock stops while the host works and restarts after', () => {
    const { scheduler, broker, ended, changes, ask } = world();
    ask('q1', { ms: MINUTE });
    const running = urlQuestion(scheduler, 'q1', MINUTE);
    broker.update(running, false);
    scheduler.advance(10 * MINUTE);
    expect(ended.size).toBe(0);
    const again = { ...running, request: { ...running.request, expiresAt: scheduler.now() + MINUTE } };
    broker.update(again, true);
    scheduler.advance(MINUTE);
    expect(ended.get('q1')).toBe('expired');
    expect(changes.map((c) => c.change)).toEqual(['asked', 'updated', 'updated', 'resolved']);
  });

  it('keeps a silent question from faces, yet ends and audits it', () => {
    const { scheduler, broker, audit, changes, ended } = world();
    const question = urlQuestion(scheduler, 'quiet');
    broker.ask(question, {
      silent: true,
      timed: false,
      handler: { answer: () => false, ended: (outcome) => ended.set('quiet', outcome), audit: () => ({ method: 'sampling/createMessage', serverId: 'srv' }) },
    });
    expect(broker.list()).toEqual([]);
    expect(broker.end('quiet', 'sent')).toBe(true);
    expect(changes).toEqual([]);
    expect(ended.get('quiet')).toBe('sent');
    expect(audit.map((e) => e.step)).toEqual([{ kind: 'asked' }, { kind: 'ended', outcome: 'sent' }]);
  });

  it('records asked, ended and refused through one audit draft, with the time waited', () => {
    const { scheduler, broker, audit, ask } = world();
    ask('q1');
    scheduler.advance(5000);
    broker.respond('q1', { kind: 'elicitation', action: 'accept' });
    broker.note({ method: 'elicitation/create', serverId: 'srv', step: { kind: 'refused', code: 'RATE_LIMITED', reason: 'one at a time' } });
    const drafts = audit.map(questionDraft);
    expect(drafts.map((d) => [d.tool, d.decision, d.outcome, d.reason, d.durationMs])).toEqual([
      ['elicitation/create', null, null, 'asked', 0],
      ['elicitation/create', 'approved', 'ok', 'accept', 5000],
      ['elicitation/create', 'refused', 'refused', 'RATE_LIMITED', 0],
    ]);
    expect(drafts[1]!.callArgs).toEqual({ mode: 'url', domain: 'example.com' });
    expect(drafts[2]!.error).toBe('one at a time');
  });

  it('does not audit a kind whose record is elsewhere (a tool confirmation is on its call)', () => {
    const { scheduler, broker, audit } = world();
    const now = scheduler.now();
    broker.ask(
      {
        kind: 'toolConfirmation',
        request: { id: 't1', serverName: 's', toolName: 'delete', args: {}, summary: 'Delete', risk: 'high', createdAt: now, expiresAt: now + MINUTE },
      },
      { handler: { answer: (answer) => broker.end('t1', answer.approved ? 'approved' : 'declined'), ended: () => undefined } },
    );
    expect(broker.respond('t1', { kind: 'toolConfirmation', approved: true })).toBe(true);
    expect(audit).toEqual([]);
  });
});
