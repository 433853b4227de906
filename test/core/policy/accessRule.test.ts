import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accessTo, grantAllows, type AccessFacts } from '../../../src/core/policy/accessRule.js';
import { RUN_ALLOWED, type RunGateAnswer } from '../../../src/core/policy/runGate.js';
import { testServerDefinition } from '../../helpers/serverDefinition.js';

/** The access rule alone: no host, no registry, no process. */

const REFUSED: RunGateAnswer = { ok: false, code: 'PLUGIN_UNTRUSTED', message: 'plugin acme.x is not trusted, so its server does not run', fix: 'chatos trust acme.x' };

function facts(over: { switchedOff?: boolean; granted?: boolean; gate?: RunGateAnswer } = {}): AccessFacts & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    switchedOff: () => (asked.push('switch'), over.switchedOff ?? false),
    granted: () => (asked.push('grant'), over.granted ?? true),
    gate: () => (asked.push('gate'), over.gate ?? RUN_ALLOWED),
    mcpConfigFile: '/home/u/.chatos/chatos/mcp.yaml',
  };
}

describe('access rule: may this caller use this server in this flow', () => {
  it('allows exactly when the server is on, granted, runnable, in the flow and selected', () => {
    fc.assert(
      fc.property(
        fc.record({
          disabled: fc.boolean(),
          switchedOff: fc.boolean(),
          granted: fc.boolean(),
          runnable: fc.boolean(),
          allowMain: fc.boolean(),
          allowSub: fc.boolean(),
          flow: fc.constantFrom('main' as const, 'sub' as const),
          selection: fc.option(fc.boolean()),
        }),
        (c) => {
          const server = testServerDefinition('s', { disabled: c.disabled, allowMain: c.allowMain, allowSub: c.allowSub });
          const serverIds = c.selection === null ? undefined : c.selection ? [server.id] : ['chatos::other'];
          const answer = accessTo({ appId: 'app', flow: c.flow, serverIds }, server, facts({ switchedOff: c.switchedOff, granted: c.granted, gate: c.runnable ? RUN_ALLOWED : REFUSED }));
          const expected = !c.disabled && !c.switchedOff && c.granted && c.runnable && (c.flow === 'main' ? c.allowMain : c.allowSub) && c.selection !== false;
          expect(answer.ok).toBe(expected);
        },
      ),
    );
  });

  it('says the first reason first, each with its code and fix', () => {
    const server = testServerDefinition('s', { allowSub: false });
    const off = accessTo({ appId: 'app', flow: 'sub' }, { ...server, disabled: true }, facts({ granted: false }), 'mcp_s_echo');
    expect(off).toMatchObject({ ok: false, code: 'SERVER_DISABLED', reason: '"mcp_s_echo" belongs to server "chatos::s", which is disabled' });
    expect(accessTo({ appId: 'app', flow: 'sub' }, server, facts({ switchedOff: true, granted: false }), 'mcp_s_echo')).toMatchObject({
      code: 'SERVER_DISABLED',
      reason: '"mcp_s_echo" belongs to server "chatos::s", which the user switched off',
    });
    expect(accessTo({ appId: 'app', flow: 'sub' }, server, facts({ granted: false, gate: REFUSED }))).toMatchObject({ code: 'NOT_GRANTED', fix: 'chatos grant app chatos::s' });
    expect(accessTo({ appId: 'app', flow: 'sub' }, server, facts({ gate: REFUSED }))).toMatchObject({ code: 'NOT_RUNNABLE', fix: 'chatos trust acme.x' });
    const flow = accessTo({ appId: 'app', flow: 'sub' }, server, facts());
    expect(flow).toMatchObject({ code: 'WRONG_FLOW', reason: 'server "chatos::s" is not available in sub flows: server "chatos::s" has allowSub false' });
    expect(!flow.ok && flow.fix).toContain('servers.s in /home/u/.chatos/chatos/mcp.yaml');
    const unselected = accessTo({ appId: 'app', agentId: 'writer', flow: 'main', serverIds: [] }, server, facts());
    expect(unselected).toMatchObject({ code: 'NOT_GRANTED' });
    expect(!unselected.ok && unselected.fix).toContain('agent writer');
  });

  it('asks each fact only when the ones before it allowed (each is a lookup on the call path)', () => {
    const f = facts({ switchedOff: true });
    accessTo({ appId: 'app', flow: 'main' }, testServerDefinition('s'), f);
    expect(f.asked).toEqual(['switch']);
    const all = facts();
    expect(accessTo({ appId: 'app', flow: 'main' }, testServerDefinition('s'), all).ok).toBe(true);
    expect(all.asked).toEqual(['switch', 'grant', 'gate']);
  });
});

describe('grant rule: who sees a registration', () => {
  const never = () => {
    throw new Error('the grant table is not asked');
  };
  it('the owner sees every row, an app its own and what it was granted, no one a missing row', () => {
    expect(grantAllows('chatos', { id: 'git_app::x' }, 'chatos', never)).toBe(true);
    expect(grantAllows('git_app', { id: 'git_app::x' }, 'chatos', never)).toBe(true);
    expect(grantAllows('aide', { id: 'git_app::x' }, 'chatos', () => true)).toBe(true);
    expect(grantAllows('aide', { id: 'git_app::x' }, 'chatos', () => false)).toBe(false);
    expect(grantAllows('chatos', { id: 'git_app::x', missing: { reason: 'gone' } }, 'chatos', never)).toBe(false);
    expect(grantAllows('aide', { id: 'git_app::x', missing: { reason: 'gone' } }, 'chatos', never)).toBe(false);
    // A provider id that is a prefix of another's is not its owner: the separator counts.
    expect(grantAllows('git', { id: 'git_app::x' }, 'chatos', () => false)).toBe(false);
  });
});
