import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../src/api/hostApiService.js';
import type { HostApiService } from '../../src/api/types.js';
import { HostApiMethods, HostEventSchema, KNOWLEDGE_UPLOAD_PART_CHARS, type HostApiMethod, type HostApiParams, type HostApiResult, type HostEventMessage } from '../../src/shared/hostApi.js';
import { FIELD_NOTES_PDF, GUIDE_MD } from '../core/knowledge/knowledgeFixtures.js';
import { startTestHost } from '../helpers/gatewayHost.js';
import { startProviderServer } from '../helpers/providerServer.js';

const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => file };

async function startApi(): Promise<{ api: HostApiService; events: HostEventMessage[]; host: Awaited<ReturnType<typeof startTestHost>>['host'] }> {
  const { host } = await startTestHost();
  const api = createHostApiService(host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
  const events: HostEventMessage[] = [];
  api.onEvent((event) => events.push(HostEventSchema.parse(event)));
  return { api, events, host };
}

async function call<M extends HostApiMethod>(api: HostApiService, method: M, params: HostApiParams<M>): Promise<HostApiResult<M>> {
  const reply = await api.handle({ method, params });
  if (!reply.ok) throw new Error(`${method} failed: ${reply.error.code} ${reply.error.message}`);
  return HostApiMethods[method].result.parse(reply.result) as HostApiResult<M>;
}

/** What the page does: the file in base64 parts of at most KNOWLEDGE_UPLOAD_PART_CHARS, at their offsets. */
async function upload(api: HostApiService, uploadId: string, bytes: Buffer, partBytes = 510_000): Promise<void> {
  for (let offset = 0; offset < bytes.length; offset += partBytes) {
    const data = bytes.subarray(offset, offset + partBytes).toString('base64');
    expect(data.length).toBeLessThanOrEqual(KNOWLEDGE_UPLOAD_PART_CHARS);
    await call(api, 'knowledge.uploadPart', { uploadId, offset, data });
  }
}

describe('HostApi knowledge methods', () => {
  it('creates, uploads a Markdown and a PDF file in parts, lists by file, searches, removes, deletes; announces each change', async () => {
    const { api, events } = await startApi();
    const { knowledgeBase } = await call(api, 'knowledge.create', { base: { name: 'Garden', chunkSize: 200, chunkOverlap: 20 } });
    expect(events).toContainEqual({ type: 'knowledge.changed', knowledgeBaseId: knowledgeBase.id });

    const big = Buffer.from(`${GUIDE_MD}\n\n${'Filler paragraph about nothing in particular. '.repeat(25_000)}`);
    await upload(api, 'upload-md-1', big);
    const md = await call(api, 'knowledge.addUpload', { id: 'garden', uploadId: 'upload-md-1', name: 'C:\\docs\\guide.md', jobId: 'job-md-1' });
    expect(md.file).toBe('guide.md');
    expect(events.filter((e) => e.type === 'knowledge.progress' && e.jobId === 'job-md-1').map((e) => e.type === 'knowledge.progress' && e.phase)).toEqual(
      expect.arrayContaining(['reading', 'chunking', 'saving']),
    );
    await upload(api, 'upload-pdf-1', FIELD_NOTES_PDF);
    await call(api, 'knowledge.addUpload', { id: 'garden', uploadId: 'upload-pdf-1', name: 'field-notes.pdf', jobId: 'job-pdf-1' });

    const page = await call(api, 'knowledge.documents', { id: 'garden', limit: 10 });
    expect(page.files.map((f) => f.file)).toEqual(['field-notes.pdf', 'guide.md']);
    expect(page.chunks).toHaveLength(10);
    const search = await call(api, 'knowledge.search', { id: 'garden', query: 'volcano' });
    expect(search.hits[0]).toMatchObject({ file: 'field-notes.pdf' });

    // An upload is used once; parts out of order are refused.
    expect((await api.handle({ method: 'knowledge.addUpload', params: { id: 'garden', uploadId: 'upload-pdf-1', name: 'x.pdf', jobId: 'job-again-1' } })) as any).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect((await api.handle({ method: 'knowledge.uploadPart', params: { uploadId: 'upload-gap-1', offset: 5, data: 'AAAA' } })) as any).toMatchObject({ ok: false, error: { code: 'INVALID' } });
    expect((await api.handle({ method: 'knowledge.search', params: { id: 'nope', query: 'x' } })) as any).toMatchObject({ ok: false, error: { code: 'KB_NOT_FOUND', hint: 'one of: garden' } });

    expect(await call(api, 'knowledge.removeDocument', { id: 'garden', file: 'field-notes.pdf' })).toEqual({ removed: expect.any(Number) });
    expect((await call(api, 'knowledge.list', {})).knowledgeBases[0]!.counts.files).toBe(1);
    expect(await call(api, 'knowledge.delete', { id: 'garden' })).toEqual({ deleted: 'garden' });
    expect((await call(api, 'knowledge.list', {})).knowledgeBases).toEqual([]);
  });

  it('adds several uploads as one change; an upload that is missing takes none of them', async () => {
    const { api, events } = await startApi();
    await call(api, 'knowledge.create', { base: { id: 'notes', name: 'Notes' } });
    const names = Array.from({ length: 5 }, (_, i) => `note-${i}.md`);
    for (const [i, name] of names.entries()) await upload(api, `upload-note-${i}`, Buffer.from(`# ${name}\n\nAbout topic${i}.`));
    const uploads = names.map((name, i) => ({ uploadId: `upload-note-${i}`, name }));

    const missing = await api.handle({ method: 'knowledge.addUploads', params: { id: 'notes', uploads: [...uploads, { uploadId: 'upload-gone-1', name: 'gone.md' }], jobId: 'job-notes-0' } });
    expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', message: 'no upload upload-gone-1' } });
    const changesBefore = events.filter((e) => e.type === 'knowledge.changed').length;
    const { added } = await call(api, 'knowledge.addUploads', { id: 'notes', uploads, jobId: 'job-notes-1' });
    expect(added.map((a) => [a.file, a.chunks])).toEqual(names.map((name) => [name, 1]));
    // One change: announced once, saved once.
    expect(events.filter((e) => e.type === 'knowledge.changed').length).toBe(changesBefore + 1);
    expect(events.filter((e) => e.type === 'knowledge.progress' && e.jobId === 'job-notes-1' && e.phase === 'saving')).toHaveLength(1);
    expect((await call(api, 'knowledge.list', {})).knowledgeBases[0]!.counts).toEqual({ files: 5, chunks: 5 });
    expect((await api.handle({ method: 'knowledge.addUploads', params: { id: 'notes', uploads: [uploads[0]!, uploads[0]!], jobId: 'job-notes-2' } })) as any).toMatchObject({ ok: false });
  });

  it('cancels an add by its job id: nothing of it is kept', async () => {
    const provider = await startProviderServer();
    const { api, events, host } = await startApi();
    await host.models.create({ id: 'embed', name: 'Embed', api: 'openai', baseUrl: provider.openaiUrl, model: 'embed-16d' });
    await call(api, 'knowledge.create', { base: { id: 'rivers', name: 'Rivers', embeddingModel: 'embed', chunkSize: 100, chunkOverlap: 0 } });
    // Cancel as soon as the first batch is embedded (the event the page's progress bar shows).
    api.onEvent((event) => {
      if (event.type === 'knowledge.progress' && event.phase === 'embedding' && event.done > 0) void api.handle({ method: 'knowledge.cancel', params: { jobId: 'job-rivers-1' } });
    });
    const text = Array.from({ length: 300 }, (_, i) => `River ${i} runs to the sea.`).join('\n\n');
    const reply = await api.handle({ method: 'knowledge.addText', params: { id: 'rivers', title: 'rivers.md', text, jobId: 'job-rivers-1' } });
    expect(reply).toMatchObject({ ok: false, error: { code: 'KB_CANCELLED' } });
    expect((await call(api, 'knowledge.list', {})).knowledgeBases[0]!.counts).toEqual({ files: 0, chunks: 0 });
    expect(events.some((e) => e.type === 'knowledge.progress' && e.phase === 'embedding' && e.done > 0)).toBe(true);
    expect(await call(api, 'knowledge.cancel', { jobId: 'job-rivers-1' })).toEqual({ cancelled: false });
  });
});
