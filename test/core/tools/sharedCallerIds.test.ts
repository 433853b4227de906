import { describe, expect, it } from 'vitest';
import { sharedCallerIds } from '../../../src/core/tools/sharedCallerIds.js';
import type { Caller } from '../../../src/core/tools/toolSource.js';

const caller = (conversationId: string, agentId?: string): Caller => ({ appId: 'chatos', conversationId, flow: 'main', ...(agentId ? { agentId } : {}) });

describe('sharedCallerIds (whose question a server asks)', () => {
  it('names the conversation and the agent that every caller of the instance shares', () => {
    expect(sharedCallerIds([caller('c1', 'a1'), caller('c1', 'a1')])).toEqual({ conversationId: 'c1', agentId: 'a1' });
  });

  it('names neither when two conversations use one instance, so no chat shows a question that is not its own', () => {
    expect(sharedCallerIds([caller('c1', 'a1'), caller('c2', 'a1')])).toEqual({ agentId: 'a1' });
    expect(sharedCallerIds([caller('c1', 'a1'), caller('c1', 'a2')])).toEqual({ conversationId: 'c1' });
    expect(sharedCallerIds([caller('c1', 'a1'), caller('c1')])).toEqual({ conversationId: 'c1' });
  });

  it('names nothing when no caller is known', () => {
    expect(sharedCallerIds([])).toEqual({});
  });
});
