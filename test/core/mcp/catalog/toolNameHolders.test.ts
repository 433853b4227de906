import { describe, expect, it } from 'vitest';
import { ToolNameHolders } from '../../../../src/core/mcp/catalog/toolNameHolders.js';

/** docs/rules/mcp-yaml.md#tool-names-and-transforms: a name is its first server's until that server drops it. */

const tools = (...names: string[]) => names.map((name) => ({ name, rawName: name.replace(/^.*?_/, '') }));

describe('tool name holders', () => {
  it('keep a name with the server that offered it first, whatever others offer later, until it drops the name', () => {
    const holders = new ToolNameHolders();
    holders.offer('mail_box', tools('m_send'));
    holders.offer('mail', tools('m_read'));
    const revision = holders.revision;
    // mail re-lists with the name mail_box holds: it queues, the name stays put.
    holders.offer('mail', tools('m_read', 'm_send'));
    expect(holders.holderOf('m_send')?.serverId).toBe('mail_box');
    expect(holders.revision).toBe(revision);
    // mail_box lists again, the same name: still its own, ahead of the queue.
    holders.offer('mail_box', tools('m_send', 'm_other'));
    expect(holders.holderOf('m_send')?.serverId).toBe('mail_box');
    // Dropped: the server that has offered it longest since takes it, and catalogs are told.
    holders.offer('mail_box', tools('m_other'));
    expect(holders.holderOf('m_send')).toMatchObject({ serverId: 'mail', rawName: 'send' });
    expect(holders.revision).toBeGreaterThan(revision);
    // Offered again later, it waits behind mail.
    holders.offer('mail_box', tools('m_other', 'm_send'));
    expect(holders.holderOf('m_send')?.serverId).toBe('mail');
  });

  it('let go of every name of a server that is gone', () => {
    const holders = new ToolNameHolders();
    holders.offer('a', tools('x_t'));
    holders.offer('b', tools('x_t'));
    holders.release('a');
    expect(holders.holderOf('x_t')?.serverId).toBe('b');
    holders.release('b');
    expect(holders.holderOf('x_t')).toBeUndefined();
  });
});
