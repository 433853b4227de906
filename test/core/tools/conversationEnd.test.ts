import { describe, expect, it } from 'vitest';
import { ConversationEnd, type ConversationEndDeps } from '../../../src/core/tools/conversationEnd.js';

/** Ending a conversation's use of tools, with the three parts it touches recording what they were asked. */

type Confirmations = ConversationEndDeps['confirmations'];
type Holders = ConversationEndDeps['holders'];
type Connections = ConversationEndDeps['connections'];

class TestConfirmations implements Confirmations {
  readonly forgotten: string[] = [];
  forgetConversation(conversationId: string): void {
    this.forgotten.push(conversationId);
  }
}

class TestHolders implements Holders {
  readonly forgotten: string[] = [];
  forget(conversationId: string): void {
    this.forgotten.push(conversationId);
  }
}

class TestConnections implements Connections {
  readonly ended: [string, string | undefined][] = [];
  async endConversation(conversationId: string, reason?: 'conversation-ended' | 'holder-gone'): Promise<number> {
    this.ended.push([conversationId, reason]);
    return 2;
  }
}

describe('ConversationEnd', () => {
  it("forgets the conversation's approvals and holders, ends its instances with the reason, and says how many ended", async () => {
    const confirmations = new TestConfirmations();
    const holders = new TestHolders();
    const connections = new TestConnections();
    const ending = new ConversationEnd({ confirmations, holders, connections });
    expect(await ending.end('c1')).toBe(2);
    expect(await ending.end('c2', 'holder-gone')).toBe(2);
    expect(confirmations.forgotten).toEqual(['c1', 'c2']);
    expect(holders.forgotten).toEqual(['c1', 'c2']);
    expect(connections.ended).toEqual([
      ['c1', 'conversation-ended'],
      ['c2', 'holder-gone'],
    ]);
  });
});
