import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../../src/core/host.js';
import type { ConversationMessage, UserMessage } from '../../../../src/shared/chat.js';
import { longConversationMessages, writeConversationLog } from '../../../../scripts/bench/longConversation.js';
import { repoRoot, tempDir } from '../../../helpers/tempDir.js';

/**
 * A conversation read by windows (issue 28): the newest messages, those
 * before, after and around one, read through the log's offset index;
 * appended lines are indexed without reading the old ones again; a torn
 * last line or a message the schema rejects is a notice, and the rest
 * still opens.
 */

let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
});

async function hostWith(count: number): Promise<{ host: Host; id: string; file: string; messages: ConversationMessage[] }> {
  host = createHost({ home: tempDir(), appRoot: repoRoot, builtinPluginsDir: tempDir(), defaultsDir: tempDir() });
  await host.start();
  host.agents.create({ id: 'writer', name: 'Writer', systemPrompt: 'Answer.' });
  const { id } = host.chat.create('writer', 'long');
  const messages = longConversationMessages(count, 'writer');
  const file = writeConversationLog(host.home.conversationsDir, id, messages);
  return { host, id, file, messages };
}

const ids = (messages: readonly ConversationMessage[]) => messages.map((m) => m.id);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `m${from + i}`);

describe('a conversation read by windows', () => {
  it('opens at its newest messages and pages back, forth and around one, whole answers with their tool results', async () => {
    const { host, id } = await hostWith(3000);
    const newest = host.chat.window(id, { limit: 50 });
    // The 50th newest, m2950, is a tool's result: the answer that called the tool comes along.
    expect(newest.window).toEqual({ start: 2949, end: 3000, total: 3000 });
    expect(ids(newest.messages)).toEqual(range(2949, 3000));
    expect(newest.conversation.leafId).toBe('m2999');
    expect(newest.notices).toEqual([]);

    const before = host.chat.window(id, { limit: 50, before: 'm2949' });
    expect(before.window!.start + before.messages.length).toBe(2949);
    expect(before.messages[0]!.role).not.toBe('tool');
    const older = host.chat.window(id, { limit: 50, before: 'm1' });
    expect(ids(older.messages)).toEqual(['m0']);

    // A window never ends on an answer whose tool result is outside it.
    const after = host.chat.window(id, { limit: 2, after: 'm0' });
    expect(ids(after.messages)).toEqual(['m1', 'm2']);
    expect(after.messages.map((m) => m.role)).toEqual(['assistant', 'tool']);

    const around = host.chat.window(id, { limit: 41, around: 'm400' });
    expect(ids(around.messages)).toContain('m400');
    expect(around.window!.start).toBeLessThanOrEqual(380);
    expect(around.window!.start + around.messages.length).toBeGreaterThanOrEqual(420);

    expect(() => host.chat.window(id, { limit: 10, around: 'nope' })).toThrow(expect.objectContaining({ code: 'MESSAGE_NOT_FOUND' }));
  });

  it('reads only what was appended since it last looked', async () => {
    const { host, id, file } = await hostWith(400);
    expect(ids(host.chat.window(id, { limit: 4 }).messages)).toEqual(range(396, 400));
    // An old line overwritten in place, at its own length: a window of the newest messages never reads it again, so never sees it.
    const text = fs.readFileSync(file, 'utf8');
    const second = text.indexOf('\n') + 1;
    const end = text.indexOf('\n', second);
    fs.writeFileSync(file, text.slice(0, second) + 'x'.repeat(Buffer.byteLength(text.slice(second, end))) + text.slice(end));
    const next: UserMessage = { id: 'm400', parentId: 'm399', at: 1, role: 'user', text: 'one more' };
    host.chat.store.append(id, next);
    const newest = host.chat.window(id, { limit: 4 });
    expect(ids(newest.messages)).toEqual(range(397, 401));
    expect(newest.notices).toEqual([]);
  });

  it('says a torn last line and a message this version rejects, and opens the rest of the branch through it; the file is kept as it is', async () => {
    const { host, id, file, messages } = await hostWith(8);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    // m3 (an answer) in a shape no version wrote; m5's record cut short at the end of the file.
    lines[3] = JSON.stringify({ ...messages[3], status: 'pondering' });
    const written = `${lines.slice(0, 8).join('\n')}\n${JSON.stringify({ id: 'm8', parentId: 'm7', at: 1, role: 'user', text: 'cut' }).slice(0, 30)}`;
    fs.writeFileSync(file, written);

    const view = host.chat.window(id, { limit: 50 });
    expect(ids(view.messages)).toEqual(['m0', 'm1', 'm2', 'm4', 'm5', 'm6', 'm7']);
    expect(view.window).toEqual({ start: 0, end: 8, total: 8 });
    expect(view.notices).toEqual([
      expect.stringContaining('the last line (30 bytes) was cut short'),
      expect.stringMatching(/message m3 \(line 4\) is not a message this version reads .*kept in the file/),
    ]);
    expect(fs.readFileSync(file, 'utf8')).toBe(written);
  });

  it('shows a message on another branch by making its branch the active one', async () => {
    const { host, id, file } = await hostWith(8);
    // An edit of the last question: m9 answers m8, beside m6 and m7.
    const edit = [
      { id: 'm8', parentId: 'm5', at: 9, role: 'user', text: 'the edited question' },
      {
        id: 'm9',
        parentId: 'm8',
        at: 10,
        role: 'assistant',
        agentId: 'writer',
        modelId: 'local',
        text: 'the edited answer',
        toolCalls: [],
        status: 'complete',
        stats: { durationMs: 1, toolsSent: 0, attempts: 1 },
      },
    ];
    fs.appendFileSync(file, edit.map((m) => `${JSON.stringify(m)}\n`).join(''));
    host.chat.store.update(id, (c) => ({ ...c, leafId: 'm7' }));
    expect(ids(host.chat.window(id, { limit: 50 }).messages)).toEqual(range(0, 8));
    const shown = host.chat.window(id, { limit: 50, around: 'm9' });
    expect(ids(shown.messages)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm8', 'm9']);
    expect(shown.siblings.m8).toEqual(['m6', 'm8']);
    expect(host.chat.store.get(id).leafId).toBe('m9');
  });

  it('is what conversations.get without a limit returns, as a window', async () => {
    const { host, id } = await hostWith(40);
    const whole = host.chat.get(id);
    const window = host.chat.window(id, { limit: 500 });
    expect(window.messages).toEqual(whole.messages);
    expect(window.siblings).toEqual(whole.siblings);
    expect(path.basename(host.chat.store.folder(id))).toBe(id);
  });
});
