import { describe, expect, it } from 'vitest';
import { confirm, onAsked, onResolved, pendingOf } from '../../helpers/questions.js';
import { CONFIRMATION_TIMEOUT_MS, ToolConfirmationService } from '../../../src/core/confirmation/toolConfirmationService.js';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation.js';
import { QuestionBroker } from '../../../src/core/questions/questionBroker.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

function setup() {
  const scheduler = new TestScheduler();
  const broker = new QuestionBroker({ scheduler, audit: () => undefined });
  const service = new ToolConfirmationService(scheduler, broker);
  const host = { questions: broker };
  const required: ToolConfirmationRequest[] = [];
  const expired: ToolConfirmationRequest[] = [];
  onAsked(host, 'toolConfirmation', (r) => required.push(r));
  onResolved(host, 'toolConfirmation', (r, outcome) => outcome === 'expired' && expired.push(r));
  return { scheduler, service, host, required, expired };
}

describe('ToolConfirmationService (docs/rules/confirmation.md#confirmation)', () => {
  it('registers confirmable tools with risk and summaries', () => {
    const { service, host } = setup();
    service.registerConfirmable('delete_agent', 'high', (args) => `Delete agent "${String(args.id)}"`);
    service.registerMultiple([{ toolName: 'grant_access', risk: 'medium' }]);
    expect(service.needsConfirmation('delete_agent')).toBe(true);
    expect(service.needsConfirmation('list_agents')).toBe(false);
    expect(service.getRiskLevel('delete_agent')).toBe('high');
    expect(service.getRiskLevel('grant_access')).toBe('medium');
  });

  it('emits a request with id, server, tool, args, summary and risk, and resolves with the answer', async () => {
    const { service, required, host } = setup();
    service.registerConfirmable('delete_agent', 'high', (args) => `Delete agent "${String(args.id)}"`);
    const answer = service.requestConfirmation('chatos::settings', 'delete_agent', { id: 'writer' });
    expect(required).toHaveLength(1);
    expect(required[0]).toMatchObject({ serverName: 'chatos::settings', toolName: 'delete_agent', args: { id: 'writer' }, summary: 'Delete agent "writer"', risk: 'high' });
    expect(pendingOf(host, 'toolConfirmation').length).toBe(1);
    expect(confirm(host, required[0]!.id, true)).toBe(true);
    await expect(answer).resolves.toBe(true);
    expect(pendingOf(host, 'toolConfirmation').length).toBe(0);
    expect(confirm(host, required[0]!.id, true)).toBe(false);
  });

  it('the generic sentence keeps to a line and says how much of the arguments it leaves out; the request carries them all', () => {
    const { service, required, host } = setup();
    service.registerConfirmable('wipe', 'high');
    const args = { padding: 'x'.repeat(300), target: '/home/me' };
    void service.requestConfirmation('chatos::tools', 'wipe', args);
    const [request] = required;
    expect(request!.customSummary).toBeUndefined();
    expect(request!.summary).toMatch(/^Run wipe on chatos::tools with \{"padding":"x+… \(137 more characters\)$/);
    expect(request!.args).toEqual(args);
    service.rejectAll();
  });

  it('a request whose call is cancelled before an answer is withdrawn: resolved as such, nothing left pending, the answer ignored', async () => {
    const { service, required, host } = setup();
    const decisions: string[] = [];
    onResolved(host, 'toolConfirmation', (_request, decision) => decisions.push(decision));
    const call = new AbortController();
    const answer = service.requestDecision('srv', 'danger', {}, { signal: call.signal });
    expect(required).toHaveLength(1);
    call.abort();
    await expect(answer).resolves.toBe('withdrawn');
    expect(decisions).toEqual(['withdrawn']);
    expect(pendingOf(host, 'toolConfirmation').length).toBe(0);
    expect(confirm(host, required[0]!.id, true)).toBe(false);
    // A call cancelled before it asked asks no one.
    await expect(service.requestDecision('srv', 'danger', {}, { signal: call.signal })).resolves.toBe('withdrawn');
    expect(required).toHaveLength(1);
    // Answered first, a later abort changes nothing.
    const later = new AbortController();
    const answered = service.requestDecision('srv', 'danger', {}, { signal: later.signal });
    confirm(host, required[1]!.id, true);
    later.abort();
    await expect(answered).resolves.toBe('approved');
    expect(decisions).toEqual(['withdrawn', 'approved']);
  });

  it('a rejection resolves false; concurrent requests are independent', async () => {
    const { service, required, host } = setup();
    const first = service.requestConfirmation('s', 'a', {});
    const second = service.requestConfirmation('s', 'b', {});
    confirm(host, required[1]!.id, true);
    confirm(host, required[0]!.id, false);
    await expect(first).resolves.toBe(false);
    await expect(second).resolves.toBe(true);
  });

  it('no answer within 60 s rejects and emits expired', async () => {
    const { service, scheduler, expired, host } = setup();
    const answer = service.requestDecision('s', 'a', {});
    scheduler.advance(CONFIRMATION_TIMEOUT_MS - 1);
    expect(pendingOf(host, 'toolConfirmation').length).toBe(1);
    expect(expired).toHaveLength(0);
    scheduler.advance(1);
    await expect(answer).resolves.toBe('expired');
    expect(expired).toHaveLength(1);
    expect(pendingOf(host, 'toolConfirmation').length).toBe(0);
  });

  it('"for this conversation" approves later calls of that tool in that conversation only', async () => {
    const { service, required, host } = setup();
    const first = service.requestDecision('s', 'write_file', {}, { conversationId: 'c1' });
    confirm(host, required[0]!.id, true, 'conversation');
    await expect(first).resolves.toBe('approved');
    await expect(service.requestDecision('s', 'write_file', {}, { conversationId: 'c1' })).resolves.toBe('approved');
    expect(required).toHaveLength(1);
    void service.requestDecision('s', 'write_file', {}, { conversationId: 'c2' });
    void service.requestDecision('s', 'other_tool', {}, { conversationId: 'c1' });
    expect(required).toHaveLength(3);
    service.forgetConversation('c1');
    void service.requestDecision('s', 'write_file', {}, { conversationId: 'c1' });
    expect(required).toHaveLength(4);
  });

  it('rejectAll declines everything pending', async () => {
    const { service, host } = setup();
    const answers = [service.requestDecision('s', 'a', {}), service.requestDecision('s', 'b', {})];
    service.rejectAll();
    await expect(Promise.all(answers)).resolves.toEqual(['declined', 'declined']);
    expect(pendingOf(host, 'toolConfirmation').length).toBe(0);
  });
});
