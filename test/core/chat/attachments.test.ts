import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChatError } from '../../../src/core/facades/errors.js';
import { MAX_ATTACHMENT_BYTES } from '../../../src/core/facades/limits.js';
import { planCompaction } from '../../../src/core/chat/contextWindow.js';
import { ConversationMessageSchema, type ConversationMessage, type UserMessage } from '../../../src/shared/chat.js';
import { agentUsing, startChatWorld } from '../../helpers/chatWorld.js';
import { pdfWithText } from '../../helpers/pdfFile.js';
import { tempDir } from '../../helpers/tempDir.js';
// @ts-expect-error a plain ES module without types
import { solidPng } from '../../../plugins/notes/mcp/pngSwatch.mjs';

/** Files attached to a user message (docs/using/chat.md#attachments): read once, kept in the conversation's folder, sent to the model. */

const PNG: Buffer = solidPng(4, [255, 0, 0]);
const PDF = pdfWithText([['Quarterly report', 'Revenue grew by 42 percent'], ['Second page: the outlook is calm']]);

/** The user message of an OpenAI chat request, as sent. */
const userContent = (body: any): any[] => {
  const user = body.messages.filter((m: any) => m.role === 'user').at(-1);
  return typeof user.content === 'string' ? [{ type: 'text', text: user.content }] : user.content;
};

async function refusal(attempt: Promise<unknown> | (() => unknown)): Promise<ChatError> {
  try {
    await (typeof attempt === 'function' ? attempt() : attempt);
  } catch (error) {
    expect(error).toBeInstanceOf(ChatError);
    return error as ChatError;
  }
  throw new Error('expected a refusal');
}

describe('attachments', () => {
  it('reach a vision model as an image part and a document as its text under its name, and stay in the conversation folder', async () => {
    const { host, provider, home } = await startChatWorld({ model: { vision: true }, agents: [agentUsing([])] });
    provider.enqueue({ kind: 'reply', text: 'a red square and a report' });
    const image = await host.chat.attach('red.png', PNG);
    const pdf = await host.chat.attach('report.pdf', PDF);
    expect(image).toMatchObject({ kind: 'image', name: 'red.png', mimeType: 'image/png', byteLength: PNG.length });
    expect(pdf).toMatchObject({ kind: 'document', name: 'report.pdf', mimeType: 'application/pdf', byteLength: PDF.length });
    const turn = host.chat.send({ agentId: 'helper', text: 'what is in these?', attachments: [image.id, pdf.id] });
    const outcome = await turn.done;
    expect(outcome.status).toBe('done');

    const parts = userContent(provider.requests[0]!.body);
    expect(parts[0]).toEqual({ type: 'text', text: 'what is in these?' });
    expect(parts[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } });
    expect(parts[2].text).toMatch(/^--- Attached file: report\.pdf ---\nQuarterly report\nRevenue grew by 42 percent\n*Second page: the outlook is calm\n--- End of report\.pdf ---$/);

    const user = outcome.messages[0] as UserMessage;
    expect(user.attachments).toEqual([
      { kind: 'image', name: 'red.png', mimeType: 'image/png', byteLength: PNG.length, artifact: expect.stringMatching(/^artifacts\/attachments\/\d+-[0-9a-f-]+\.png$/) },
      expect.objectContaining({
        kind: 'document',
        name: 'report.pdf',
        artifact: expect.stringMatching(/^artifacts\/attachments\/\d+-[0-9a-f-]+\.txt$/),
        // The original is kept beside its text, named by its type, never by the name the user gave.
        original: expect.stringMatching(/^artifacts\/attachments\/\d+-[0-9a-f-]+-original\.pdf$/),
      }),
    ]);
    const folder = path.join(home, 'chatos', 'conversations', turn.conversationId);
    expect(fs.readFileSync(path.join(folder, user.attachments![0]!.artifact)).equals(PNG)).toBe(true);
    expect(fs.readFileSync(path.join(folder, user.attachments![1]!.artifact), 'utf8')).toContain('Revenue grew by 42 percent');
    const document = user.attachments![1]!;
    expect(document.kind === 'document' && fs.readFileSync(path.join(folder, document.original!)).equals(PDF)).toBe(true);
    // The JSON export carries the original's bytes too, so an imported copy loses nothing.
    const exported = JSON.parse(host.chat.export(turn.conversationId, 'json').text) as { attachments: Record<string, { encoding: string; data: string }> };
    expect(Buffer.from(exported.attachments[(document as { original: string }).original]!.data, 'base64').equals(PDF)).toBe(true);
    // Kept with the conversation: read back from disk, the message still carries them, and each id was sent once.
    expect((host.chat.get(turn.conversationId).messages[0] as UserMessage).attachments).toEqual(user.attachments);
    await expect(refusal(() => host.chat.send({ conversationId: turn.conversationId, text: 'again', attachments: [image.id] }))).resolves.toMatchObject({ code: 'ATTACHMENT_NOT_FOUND' });
  });

  it('reach a model without vision as a note naming the image, never as image data; a message may be files alone', async () => {
    const { host, provider } = await startChatWorld({ model: { vision: false }, agents: [agentUsing([])] });
    provider.enqueue({ kind: 'reply', text: 'ok' });
    const image = await host.chat.attach('photo.png', PNG);
    const outcome = await host.chat.send({ agentId: 'helper', text: '', attachments: [image.id] }).done;
    const sent = JSON.stringify(provider.requests[0]!.body);
    expect(sent).not.toContain(PNG.toString('base64'));
    expect(userContent(provider.requests[0]!.body).map((p) => p.text)).toEqual(['[image photo.png attached; this model does not read images]']);
    // The conversation is titled by the file when the message has no text.
    expect(host.chat.get(outcome.conversationId).conversation.title).toBe('photo.png');
  });

  it('cut a long document at the cap and tell the model what was cut', async () => {
    const { host, provider } = await startChatWorld({ agents: [agentUsing([])] });
    provider.enqueue({ kind: 'reply', text: 'long' });
    const text = `${'a'.repeat(99_990)}TAIL-KEPT${'b'.repeat(50_000)}TAIL-CUT`;
    const attached = await host.chat.attach('long.md', Buffer.from(text));
    expect(attached).toMatchObject({ kind: 'document', chars: 100_000, totalChars: text.length });
    await host.chat.send({ agentId: 'helper', text: 'summarize', attachments: [attached.id] }).done;
    // Text parts alone reach the OpenAI wire as one string, joined by line breaks.
    const part = userContent(provider.requests[0]!.body)[0].text as string;
    expect(part).toMatch(/^summarize\n--- Attached file: long\.md ---\naaa/);
    expect(part).toContain('TAIL-KEPT');
    expect(part).not.toContain('TAIL-CUT');
    expect(part).toContain(`[long.md was cut: only its first 100000 of ${text.length} characters are here; the last ${text.length - 100_000} were left out]`);
  });

  it('reads HTML as its text', async () => {
    const { host } = await startChatWorld({ agents: [agentUsing([])] });
    const page = await host.chat.attach('page.html', Buffer.from('<html><head><script>var secret=1</script></head><body><h1>Title</h1><p>Body text</p></body></html>'));
    expect(page).toMatchObject({ kind: 'document', mimeType: 'text/html' });
    expect(page.chars).toBeLessThan(40);
  });

  it('refuses, naming the file and the fix: too large (before it is read), a type it cannot read, a PDF without text, an image that is not one', async () => {
    const { host } = await startChatWorld({ agents: [agentUsing([])] });
    const dir = tempDir('attach-');
    // A 50 MB file, sparse: refused by its size alone (its bytes are never read).
    const big = path.join(dir, 'big.pdf');
    const fd = fs.openSync(big, 'w');
    fs.ftruncateSync(fd, 50 * 1024 * 1024);
    fs.closeSync(fd);
    const tooLarge = await refusal(host.chat.attachFile(big));
    expect(tooLarge).toMatchObject({ code: 'ATTACHMENT_TOO_LARGE', message: expect.stringContaining('big.pdf is larger than 20 MB'), hint: expect.stringContaining('smaller') });
    await expect(refusal(host.chat.attach('big.txt', Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 0x61)))).resolves.toMatchObject({ code: 'ATTACHMENT_TOO_LARGE' });

    const docx = await refusal(host.chat.attach('letter.docx', Buffer.from('PK\u0003\u0004')));
    expect(docx).toMatchObject({ code: 'ATTACHMENT_UNSUPPORTED', message: expect.stringContaining('letter.docx'), hint: expect.stringContaining('PDF') });
    const blank = await refusal(host.chat.attach('scan.pdf', pdfWithText([[]])));
    expect(blank).toMatchObject({ code: 'ATTACHMENT_EMPTY', message: expect.stringContaining('scan.pdf has no text'), hint: expect.stringContaining('OCR') });
    const notPng = await refusal(host.chat.attach('fake.png', Buffer.from('not an image at all')));
    expect(notPng).toMatchObject({ code: 'ATTACHMENT_UNREADABLE', message: expect.stringContaining('fake.png is not a PNG') });
    const binary = await refusal(host.chat.attach('data.txt', Buffer.from([0x61, 0, 0x62])));
    expect(binary.message).toContain('data.txt is not a text file');
    const fifo = path.join(dir, 'pipe.txt');
    try {
      (await import('node:child_process')).execFileSync('mkfifo', [fifo]);
      await expect(refusal(host.chat.attachFile(fifo))).resolves.toMatchObject({ code: 'ATTACHMENT_UNREADABLE', message: expect.stringContaining('FIFO') });
    } catch (error) {
      if (!(error instanceof Error && /mkfifo/.test(error.message))) throw error;
    }

    // A send naming an attachment that is not waiting starts nothing.
    await expect(refusal(() => host.chat.send({ agentId: 'helper', text: 'hi', attachments: ['no-such-id'] }))).resolves.toMatchObject({ code: 'ATTACHMENT_NOT_FOUND' });
    expect(host.chat.list()).toEqual([]);
  });

  it('keeps the attachments when a message is edited, and puts them in both exports', async () => {
    const { host, provider } = await startChatWorld({ model: { vision: true }, agents: [agentUsing([])] });
    provider.enqueue({ kind: 'reply', text: 'first' }, { kind: 'reply', text: 'second' });
    const image = await host.chat.attach('red.png', PNG);
    const notes = await host.chat.attach('notes.md', Buffer.from('# Notes\n\nRemember the ```fence``` inside.'));
    const turn = host.chat.send({ agentId: 'helper', text: 'look', attachments: [image.id, notes.id] });
    const { messages } = await turn.done;
    const edited = await host.chat.edit({ conversationId: turn.conversationId, messageId: messages[0]!.id, text: 'look again' }).done;
    expect((edited.messages[0] as UserMessage).attachments).toEqual((messages[0] as UserMessage).attachments);
    expect(JSON.stringify(provider.requests[1]!.body)).toContain(PNG.toString('base64'));

    const md = host.chat.export(turn.conversationId, 'md').text;
    expect(md).toContain('**Attached:** red.png (image/png');
    expect(md).toContain(`![red.png](data:image/png;base64,${PNG.toString('base64')})`);
    expect(md).toContain('**Attached:** notes.md (text/markdown');
    expect(md).toContain('````\n# Notes\n\nRemember the ```fence``` inside.\n````');
    const json = JSON.parse(host.chat.export(turn.conversationId, 'json').text);
    const [imageFile, notesFile] = (json.messages[0] as UserMessage).attachments!.map((a) => a.artifact);
    expect(json.attachments[imageFile!]).toEqual({ encoding: 'base64', data: PNG.toString('base64') });
    expect(json.attachments[notesFile!]).toEqual({ encoding: 'utf8', data: '# Notes\n\nRemember the ```fence``` inside.' });
  });

  it('leaves messages without attachments as they were written: an older conversation file still opens', async () => {
    const { host, provider, home } = await startChatWorld({ agents: [agentUsing([])] });
    provider.enqueue({ kind: 'reply', text: 'hello' }, { kind: 'reply', text: 'still here' });
    const turn = host.chat.send({ agentId: 'helper', text: 'hi' });
    await turn.done;
    const file = path.join(home, 'chatos', 'conversations', turn.conversationId, 'messages.jsonl');
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    // A user line as every version before attachments wrote it: no "attachments" key at all.
    expect(Object.keys(JSON.parse(lines[0]!))).toEqual(['id', 'parentId', 'at', 'role', 'text']);
    expect(ConversationMessageSchema.parse(JSON.parse(lines[0]!))).toMatchObject({ role: 'user', text: 'hi' });
    const later = await host.chat.send({ conversationId: turn.conversationId, text: 'more' }).done;
    expect(later.status).toBe('done');
    expect(host.chat.get(turn.conversationId).messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it("count toward the context window by their text, and are named in a summary's transcript", () => {
    const document = { kind: 'document' as const, name: 'book.md', mimeType: 'text/markdown', byteLength: 400_000, artifact: 'artifacts/attachments/1-a.txt', chars: 100_000 };
    const stats = { durationMs: 1, toolsSent: 0, attempts: 1 };
    const path: ConversationMessage[] = [
      { id: 'u1', parentId: null, at: 1, role: 'user', text: '', attachments: [document] },
      { id: 'a1', parentId: 'u1', at: 2, role: 'assistant', agentId: 'x', modelId: 'm', text: 'read it', toolCalls: [], status: 'complete', stats },
      { id: 'u2', parentId: 'a1', at: 3, role: 'user', text: 'and now?' },
    ];
    // The words alone are a few tokens; the document's 100k characters are about 25k: over 80% of a 30k window.
    const plan = planCompaction(path, 0, 30_000)!;
    expect(plan.transcript[0]).toEqual({ role: 'user', text: '[attached file book.md]' });
  });

  it('a Chinese document counts by its text where it can be read (its characters ÷ 4 were a quarter of its tokens)', () => {
    const text = '人工智能正在改变我们的生活方式。'.repeat(500);
    const document = { kind: 'document' as const, name: '报告.md', mimeType: 'text/markdown', byteLength: text.length * 3, artifact: 'artifacts/attachments/1-b.txt', chars: text.length };
    const stats = { durationMs: 1, toolsSent: 0, attempts: 1 };
    const path: ConversationMessage[] = [
      { id: 'u1', parentId: null, at: 1, role: 'user', text: '', attachments: [document] },
      { id: 'a1', parentId: 'u1', at: 2, role: 'assistant', agentId: 'x', modelId: 'm', text: '好', toolCalls: [], status: 'complete', stats },
      { id: 'u2', parentId: 'a1', at: 3, role: 'user', text: '然后呢？' },
    ];
    // 8,000 characters: 2,000 by characters ÷ 4, well under 80% of a 5,000 window; about 8,000 tokens by its script.
    expect(planCompaction(path, 0, 5_000)).toBeUndefined();
    const read = (artifact: string) => (artifact === document.artifact ? text : undefined);
    expect(planCompaction(path, 0, 5_000, { documentText: read })).toBeDefined();
  });
});
