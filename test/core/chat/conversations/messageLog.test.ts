import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../../../src/shared/chat.js';
import { ensureFolder, MessageLog } from '../../../../src/core/chat/conversations/messageLog.js';
import { MessageLogError } from '../../../../src/core/chat/conversations/messageLogError.js';
import { MessageTree } from '../../../../src/core/chat/conversations/messageTree.js';
import { tempDir } from '../../../helpers/tempDir.js';

const user = (id: string, parentId: string | null, text = id): ConversationMessage => ({ id, parentId, at: 1, role: 'user', text });
const answer = (id: string, parentId: string | null, text = id): ConversationMessage => ({
  id,
  parentId,
  at: 2,
  role: 'assistant',
  agentId: 'a',
  modelId: 'm',
  text,
  toolCalls: [],
  status: 'complete',
  stats: { durationMs: 1, toolsSent: 0, attempts: 1 },
});

function log(): MessageLog {
  const dir = path.join(tempDir(), 'conv');
  ensureFolder(dir);
  return new MessageLog(dir);
}

describe('a conversation message log', () => {
  it('appends one line per message and reads them back in order', () => {
    const messages = log();
    messages.append(user('u1', null));
    messages.append(answer('a1', 'u1'));
    expect(fs.readFileSync(messages.file, 'utf8').split('\n')).toHaveLength(3);
    expect(messages.read()).toEqual({ messages: [user('u1', null), answer('a1', 'u1')], notices: [] });
  });

  it('skips a torn last line with a notice, and the next append starts on a line of its own', () => {
    const messages = log();
    messages.append(user('u1', null));
    // A process killed mid-write leaves part of a line without its newline.
    fs.appendFileSync(messages.file, JSON.stringify(answer('a1', 'u1')).slice(0, 40));
    const read = messages.read();
    expect(read.messages.map((m) => m.id)).toEqual(['u1']);
    expect(read.notices).toEqual([expect.stringContaining('the last line (40 bytes) was cut short')]);
    messages.append(answer('a2', 'u1'));
    expect(messages.read().messages.map((m) => m.id)).toEqual(['u1', 'a2']);
  });

  it('skips a line that is not a message, naming it', () => {
    const messages = log();
    fs.writeFileSync(messages.file, `${JSON.stringify(user('u1', null))}\n{"role":"wizard"}\nnot json\n`);
    const read = messages.read();
    expect(read.messages.map((m) => m.id)).toEqual(['u1']);
    expect(read.notices).toEqual([expect.stringContaining('line 2 is not a message'), 'line 3 is not JSON and is skipped']);
  });

  it('never reads or writes through a link, nor uses a linked folder', () => {
    const outside = path.join(tempDir(), 'outside.jsonl');
    fs.writeFileSync(outside, `${JSON.stringify(user('secret', null))}\n`);
    const messages = log();
    fs.symlinkSync(outside, messages.file);
    expect(() => messages.append(user('u1', null))).toThrow(MessageLogError);
    expect(() => messages.read()).toThrow(/link/);
    expect(fs.readFileSync(outside, 'utf8').split('\n')).toHaveLength(2);

    const base = tempDir();
    fs.symlinkSync(tempDir(), path.join(base, 'conv'));
    expect(() => ensureFolder(path.join(base, 'conv'))).toThrow(expect.objectContaining({ code: 'CONVERSATION_FOLDER_UNSAFE' }));
  });
});

describe('a message tree', () => {
  // u1 → a1 → u2 → a2; u2 edited as u2b → a2b; a2b regenerated as a2c.
  const messages = [user('u1', null), answer('a1', 'u1'), user('u2', 'a1'), answer('a2', 'u2'), user('u2b', 'a1'), answer('a2b', 'u2b'), answer('a2c', 'u2b')];
  const tree = new MessageTree(messages);

  it('walks the active branch and says where it has siblings', () => {
    const path = tree.pathTo('a2c');
    expect(path.map((m) => m.id)).toEqual(['u1', 'a1', 'u2b', 'a2c']);
    expect({ ...tree.siblingsAlong(path) }).toEqual({ u2b: ['u2', 'u2b'], a2c: ['a2b', 'a2c'] });
  });

  it('ends the branch at the newest message written below the leaf the index names (a run killed before it saved its leaf)', () => {
    expect(tree.effectiveLeaf('u2b')).toBe('a2c');
    expect(tree.effectiveLeaf('a1')).toBe('a2c');
    expect(tree.effectiveLeaf('u2')).toBe('a2');
    expect(tree.effectiveLeaf(null)).toBe('a2c');
    expect(tree.effectiveLeaf('unknown')).toBe('a2c');
    expect(new MessageTree([]).effectiveLeaf(null)).toBeNull();
  });
});
