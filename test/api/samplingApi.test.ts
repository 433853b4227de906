import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../src/api/hostApiService.js';
import type { QuestionOf } from '../../src/shared/question.js';
import { HostApiMethods, HostEventSchema, type HostApiMethod, type HostApiParams, type HostApiResult, type HostEventMessage } from '../../src/shared/hostApi.js';
import { agentUsing, startChatWorld } from '../helpers/chatWorld.js';
import { EVERYTHING_SERVER, caller, textOf } from '../helpers/gatewayHost.js';

/**
 * The sampling API a face uses (the chat's card, the Playground): the
 * request arrives as a `question` event, is listed, refused edits are said
 * (INVALID) with the request kept, an approval runs the model and the
 * completion arrives as the question's update, then is sent; "always allow" is
 * read and revoked. Against server-everything over stdio and the local
 * provider server.
 */

const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/artifacts${file}` };

async function call<M extends HostApiMethod>(api: ReturnType<typeof createHostApiService>, method: M, params: HostApiParams<M>): Promise<HostApiResult<M>> {
  const reply = await api.handle({ method, params });
  if (!reply.ok) throw new Error(`${method} failed: ${reply.error.code} ${reply.error.message}`);
  return HostApiMethods[method].result.parse(reply.result) as HostApiResult<M>;
}

/** The sampling question an event tells of. */
function samplingOf(event: HostEventMessage): QuestionOf<'sampling'> {
  if (event.type !== 'question' || event.question.kind !== 'sampling') throw new Error(`not a sampling question: ${event.type}`);
  return event.question;
}

describe('sampling over the HostApi', () => {
  it('lists a request, refuses bad edits, runs the approved one, shows its completion, sends it', async () => {
    const { host, provider } = await startChatWorld({
      servers: { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] } },
      agents: [agentUsing(['everything'])],
    });
    provider.enqueue({ kind: 'reply', text: 'A fine answer' });
    const api = createHostApiService(host, { face: 'serve', urls, version: '9.9.9', locale: 'en-US' });
    const events: HostEventMessage[] = [];
    const waiters = new Map<string, (event: HostEventMessage) => void>();
    api.onEvent((event) => {
      const checked = HostEventSchema.parse(event);
      events.push(checked);
      const key = checked.type === 'question' && checked.question.kind === 'sampling' ? `${checked.change}:${checked.question.request.stage}` : checked.type;
      waiters.get(key)?.(checked);
    });
    const eventOf = <T extends string>(key: T) => new Promise<HostEventMessage>((resolve) => waiters.set(key, resolve));

    const required = eventOf('asked:review');
    const running = host.tools.call(caller('conv-api', { agentId: 'helper' }), 'mcp_everything_trigger-sampling-request', { prompt: 'hello' });
    const { request } = samplingOf(await required);
    expect((await call(api, 'questions.list', {})).pending.map((q) => q.request.id)).toEqual([request.id]);

    // An edit outside the bounds is refused, saying why; the request stays.
    const refused = await api.handle({ method: 'questions.respond', params: { id: request.id, answer: { kind: 'sampling', answer: { action: 'approve', edits: { messages: [] } } } } });
    expect(refused).toEqual({ ok: false, error: { code: 'INVALID', message: 'the edited request is refused: messages must be a non-empty list' } });
    // Send before there is a completion: nothing happens.
    expect(await call(api, 'questions.respond', { id: request.id, answer: { kind: 'sampling', answer: { action: 'send' } } })).toEqual({ answered: false });
    expect((await call(api, 'questions.list', {})).pending).toHaveLength(1);

    const completed = eventOf('updated:completion');
    expect(await call(api, 'questions.respond', { id: request.id, answer: { kind: 'sampling', answer: { action: 'approve' } } })).toEqual({ answered: true });
    const shown = samplingOf(await completed).request;
    expect(shown.completion?.content).toEqual([{ type: 'text', text: 'A fine answer' }]);
    expect(await call(api, 'questions.respond', { id: request.id, answer: { kind: 'sampling', answer: { action: 'send' } } })).toEqual({ answered: true });
    expect(textOf((await running).result)).toContain('A fine answer');
    expect(
      events
        .flatMap((e) => (e.type === 'question' && e.question.kind === 'sampling' ? [e] : []))
        .map((e) => (e.change === 'resolved' ? `resolved:${e.outcome}` : `${e.change}:${(e.question as QuestionOf<'sampling'>).request.stage}`)),
    ).toEqual(['asked:review', 'updated:running', 'updated:completion', 'resolved:sent']);

    expect(await call(api, 'sampling.alwaysAllowed', { serverId: 'chatos::everything' })).toEqual({ always: false });
    expect(await call(api, 'sampling.revoke', { serverId: 'chatos::everything' })).toEqual({ always: false });
  });
});
