import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../src/api/hostApiService.js';
import type { HostApiService } from '../../src/api/types.js';
import type { UserMessage } from '../../src/shared/chat.js';
import { HostApiMethods, HostEventSchema, type HostApiMethod, type HostApiParams, type HostApiResult, type HostEventMessage } from '../../src/shared/hostApi.js';
import { agentUsing, startChatWorld } from '../helpers/chatWorld.js';
import { pdfWithText } from '../helpers/pdfFile.js';
// @ts-expect-error a plain ES module without types
import { solidPng } from '../../plugins/notes/mcp/pngSwatch.mjs';

/** Attachments through the HostApi (docs/using/chat.md#attachments): uploaded in parts under the 1 MB body limit, read by chat.attach, named by chat.send. */

const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/files${file}` };

async function call<M extends HostApiMethod>(api: HostApiService, method: M, params: HostApiParams<M>): Promise<HostApiResult<M>> {
  const reply = await api.handle({ method, params });
  if (!reply.ok) throw new Error(`${method} failed: ${reply.error.code} ${reply.error.message}`);
  return HostApiMethods[method].result.parse(reply.result) as HostApiResult<M>;
}

async function upload(api: HostApiService, uploadId: string, name: string, bytes: Buffer, partBytes = 480_000): Promise<void> {
  for (let offset = 0; offset < bytes.length; offset += partBytes) {
    await call(api, 'chat.uploadPart', { uploadId, offset, data: bytes.subarray(offset, offset + partBytes).toString('base64'), name, size: bytes.length });
  }
}

describe('HostApi attachments', () => {
  it('uploads an image and a PDF in parts, attaches and sends them; the message and its event carry the image url', async () => {
    const world = await startChatWorld({ model: { vision: true }, agents: [agentUsing([])] });
    const api = createHostApiService(world.host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
    const events: HostEventMessage[] = [];
    api.onEvent((event) => events.push(HostEventSchema.parse(event)));
    world.provider.enqueue({ kind: 'reply', text: 'seen' });

    // The image in three parts, as a large one comes.
    const png: Buffer = solidPng(600, [10, 200, 30]);
    const pdf = pdfWithText([['Minutes of the meeting', 'Decision: ship on Friday']]);
    await upload(api, 'upload-png-1', 'green.png', png, Math.ceil(png.length / 3));
    await upload(api, 'upload-pdf-1', 'minutes.pdf', pdf);
    const image = (await call(api, 'chat.attach', { uploadId: 'upload-png-1', name: 'green.png' })).attachment;
    const doc = (await call(api, 'chat.attach', { uploadId: 'upload-pdf-1', name: 'minutes.pdf' })).attachment;
    expect(doc).toMatchObject({ kind: 'document', name: 'minutes.pdf', byteLength: pdf.length });

    const sent = await call(api, 'chat.send', { agentId: 'helper', text: 'read these', attachments: [image.id, doc.id] });
    await world.provider.waitForRequests(1);
    const body = JSON.stringify(world.provider.requests[0]!.body);
    expect(body).toContain(png.toString('base64'));
    expect(body).toContain('Decision: ship on Friday');

    const message = events.find((e) => e.type === 'chat.message' && e.message.role === 'user');
    const artifact = (message?.type === 'chat.message' ? (message.message as UserMessage) : undefined)?.attachments?.[0]?.artifact;
    expect(artifact).toMatch(/^artifacts\/attachments\//);
    expect(message).toMatchObject({ artifactUrls: { [artifact!]: expect.stringContaining(`${sent.conversationId}/${artifact}`) } });
    const view = await call(api, 'conversations.get', { id: sent.conversationId });
    expect(view.artifactUrls[artifact!]).toContain(artifact);
  });

  it('refuses a 50 MB file at its first part, by the size the page declares, naming the file', async () => {
    const world = await startChatWorld({ agents: [agentUsing([])] });
    const api = createHostApiService(world.host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
    const reply = await api.handle({
      method: 'chat.uploadPart',
      params: { uploadId: 'upload-big-1', offset: 0, data: Buffer.alloc(1000).toString('base64'), name: 'huge.pdf', size: 50 * 1024 * 1024 },
    });
    expect(reply).toMatchObject({ ok: false, error: { code: 'ATTACHMENT_TOO_LARGE', message: expect.stringContaining('huge.pdf is larger than 20 MB') } });
    // A type the host cannot read: refused by chat.attach, the upload used up.
    await upload(api, 'upload-odd-1', 'table.xlsx', Buffer.from('PK\u0003\u0004 not read'));
    expect(await api.handle({ method: 'chat.attach', params: { uploadId: 'upload-odd-1', name: 'table.xlsx' } })).toMatchObject({
      ok: false,
      error: { code: 'ATTACHMENT_UNSUPPORTED', message: expect.stringContaining('table.xlsx') },
    });
    // One removed before sending is gone.
    await upload(api, 'upload-note-1', 'note.txt', Buffer.from('a note'));
    const note = (await call(api, 'chat.attach', { uploadId: 'upload-note-1', name: 'note.txt' })).attachment;
    expect(await call(api, 'chat.detach', { id: note.id })).toEqual({ discarded: true });
    expect(await api.handle({ method: 'chat.send', params: { agentId: 'helper', text: 'x', attachments: [note.id] } })).toMatchObject({ ok: false, error: { code: 'ATTACHMENT_NOT_FOUND' } });
  });
});
