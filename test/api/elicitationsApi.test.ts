import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../src/api/hostApiService.js';
import { HostApiMethods, HostEventSchema, type HostApiMethod, type HostApiParams, type HostApiResult, type HostEventMessage } from '../../src/shared/hostApi.js';
import { formDefaults, type ElicitationRequest } from '../../src/shared/elicitation.js';
import { EVERYTHING_SERVER, caller, startTestHost, writeMcpYaml } from '../helpers/gatewayHost.js';

/**
 * The elicitation API a face uses (the page's card, the desktop app): the
 * question arrives as a `question` event, is listed (questions.list), and is answered with
 * questions.respond; a value that does not fit is refused naming the
 * field, nothing reaches the server, and the question stays. Against
 * server-everything over stdio.
 */

const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/artifacts${file}` };

async function call<M extends HostApiMethod>(api: ReturnType<typeof createHostApiService>, method: M, params: HostApiParams<M>): Promise<HostApiResult<M>> {
  const reply = await api.handle({ method, params });
  if (!reply.ok) throw new Error(`${method} failed: ${reply.error.code} ${reply.error.message}`);
  return HostApiMethods[method].result.parse(reply.result) as HostApiResult<M>;
}

describe('elicitations over the HostApi', () => {
  it('lists a question, refuses a bad value naming the field, and answers with the checked form', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } }));
    const api = createHostApiService(host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
    const events: HostEventMessage[] = [];
    const required = new Promise<ElicitationRequest>((resolve) =>
      api.onEvent((event) => {
        const checked = HostEventSchema.parse(event);
        events.push(checked);
        if (checked.type === 'question' && checked.change === 'asked' && checked.question.kind === 'elicitation') resolve(checked.question.request);
      }),
    );
    const running = host.tools.call(caller('conv-api'), 'mcp_everything_trigger-elicitation-request', {});
    const request = await required;
    if (request.mode !== 'form') throw new Error('expected a form');
    expect((await call(api, 'questions.list', {})).pending.map((q) => q.request.id)).toEqual([request.id]);

    const refused = await api.handle({
      method: 'questions.respond',
      params: { id: request.id, answer: { kind: 'elicitation', action: 'accept', content: { ...formDefaults(request.fields), name: 'Ada', email: 'not-an-email' } } },
    });
    expect(refused).toEqual({
      ok: false,
      error: {
        code: 'INVALID',
        message: 'the answer does not fit the form: email is not an email address (name@example.com)',
        fields: [{ path: 'email', message: 'is not an email address (name@example.com)' }],
      },
    });
    // A content value outside the contract never reaches the host.
    expect(await api.handle({ method: 'questions.respond', params: { id: request.id, answer: { kind: 'elicitation', action: 'accept', content: { name: { nested: true } } } } })).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST' },
    });
    expect((await call(api, 'questions.list', {})).pending).toHaveLength(1);

    expect(
      await call(api, 'questions.respond', { id: request.id, answer: { kind: 'elicitation', action: 'accept', content: { ...formDefaults(request.fields), name: 'Ada', email: 'ada@example.com' } } }),
    ).toEqual({
      answered: true,
    });
    const text = (await running).result.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
    expect(text).toContain('- Email: ada@example.com');
    expect(events.filter((e) => e.type === 'question')).toEqual([
      { type: 'question', change: 'asked', question: { kind: 'elicitation', request } },
      { type: 'question', change: 'resolved', question: { kind: 'elicitation', request }, outcome: 'accept' },
    ]);
    expect(await call(api, 'questions.respond', { id: request.id, answer: { kind: 'elicitation', action: 'decline' } })).toEqual({ answered: false });
    expect((await call(api, 'questions.list', {})).pending).toEqual([]);
    api.dispose();
  });
});
