import * as fs from 'node:fs';
import { answerElicitation, onAsked, pendingOf } from '../../helpers/questions.js';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ElicitationError } from '../../../src/core/facades/errors.js';
import type { Host } from '../../../src/core/host.js';
import { formDefaults, type ElicitationRequest } from '../../../src/shared/elicitation.js';
import { startHttpEverything } from '../../helpers/everythingHttp.js';
import { EVERYTHING_SERVER, caller, startTestHost, textOf, waitUntil, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { sdkServerSource } from '../../helpers/sdkServer.js';
import { nextQuestion, outcomes } from '../../helpers/elicitations.js';
import { tempDir } from '../../helpers/tempDir.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

/**
 * MCP elicitation through the host, against the MCP project's reference
 * server over stdio: its elicitation tools are offered only because the
 * host declares the capability, and the questions they ask reach the
 * host's ElicitationService (where a face answers) and come back as the
 * tool's result. Expiry runs on the injected scheduler, never a real wait.
 */

const FORM_TOOL = 'mcp_everything_trigger-elicitation-request';
const URL_TOOL = 'mcp_everything_trigger-url-elicitation';

/**
 * A call's own `maxTotalTimeout` (10 min by default) bounds a question's wait too and runs on the same injected clock;
 * where the question's own expiry is tested, the call is given longer so the expiry is what ends it.
 */
const OUTLASTS_THE_QUESTION = 20 * 60_000;

async function everythingHost(scheduler?: TestScheduler) {
  const { host } = await startTestHost(
    ({ home }) => writeMcpYaml(home, { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], maxTotalTimeout: OUTLASTS_THE_QUESTION } }),
    scheduler ? { scheduler } : {},
  );
  return host;
}

/** The fields an answer was refused for (it must be refused). */
function refusalOf(answer: () => unknown): ElicitationError['fields'] {
  try {
    answer();
  } catch (error) {
    if (error instanceof ElicitationError) return error.fields;
    throw error;
  }
  throw new Error('the answer was not refused');
}

const allText = (content: { type: string; text?: string }[]) => content.map((item) => item.text ?? '').join('\n');

describe('elicitation with @modelcontextprotocol/server-everything', () => {
  it('offers its elicitation tools, and a form accepted at its defaults (plus the one required field) reaches the server', async () => {
    const host = await everythingHost();
    const names = (await host.tools.list(caller('conv-e'))).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining([FORM_TOOL, URL_TOOL]));

    const seen = outcomes(host);
    const asked = nextQuestion(host);
    const call = host.tools.call(caller('conv-e'), FORM_TOOL, {});
    const request = await asked;
    if (request.mode !== 'form') throw new Error('expected a form');
    expect(request).toMatchObject({ serverId: 'chatos::everything', serverName: 'everything', conversationId: 'conv-e', message: 'Please provide inputs for the following fields:' });
    expect(request.fields.map((f) => f.name)).toEqual([
      'name',
      'check',
      'firstLine',
      'email',
      'homepage',
      'birthdate',
      'integer',
      'number',
      'untitledSingleSelectEnum',
      'untitledMultipleSelectEnum',
      'titledSingleSelectEnum',
      'titledMultipleSelectEnum',
      'legacyTitledEnum',
    ]);
    expect(pendingOf(host, 'elicitation').map((r) => r.id)).toEqual([request.id]);

    // The form as first shown lacks the one required field: accepting it so is refused, naming it, and nothing is sent.
    const defaults = formDefaults(request.fields);
    expect(refusalOf(() => answerElicitation(host, request.id, 'accept', defaults))).toEqual([{ path: 'name', message: 'is required' }]);
    expect(refusalOf(() => answerElicitation(host, request.id, 'accept', { ...defaults, name: 'Ada', integer: 500 }))).toEqual([{ path: 'integer', message: 'must be at most 100' }]);
    expect(pendingOf(host, 'elicitation')).toHaveLength(1);

    expect(answerElicitation(host, request.id, 'accept', { ...defaults, name: 'Ada Lovelace' })).toBe(true);
    const { result } = await call;
    const text = allText(result.content as { type: string; text?: string }[]);
    expect(text).toContain('✅ User provided the requested information!');
    const raw = JSON.parse(text.slice(text.indexOf('{'))) as { action: string; content: Record<string, unknown> };
    expect(raw).toEqual({
      action: 'accept',
      content: {
        name: 'Ada Lovelace',
        firstLine: 'It was a dark and stormy night.',
        integer: 42,
        number: 3.14,
        untitledSingleSelectEnum: 'Monica',
        untitledMultipleSelectEnum: ['Guitar'],
        titledSingleSelectEnum: 'hero-1',
        titledMultipleSelectEnum: ['fish-1'],
        legacyTitledEnum: 'pet-1',
      },
    });
    expect(seen).toEqual(['accept']);
    expect(pendingOf(host, 'elicitation')).toEqual([]);

    // The audit has the question and its end, with the field names and never a value typed.
    const rows = host.audit.query({ tool: 'elicitation/create' });
    expect(rows.map((r) => [r.reason, r.decision, r.outcome])).toEqual([
      ['accept', 'approved', 'ok'],
      ['asked', null, null],
    ]);
    expect(rows[0]).toMatchObject({ serverId: 'chatos::everything', conversationId: 'conv-e', appId: 'chatos', flow: 'main' });
    expect(rows[0]!.args).toContain('"fields":["name","check"');
    expect(JSON.stringify(rows)).not.toContain('Ada');
  });

  it('declined: the server hears decline', async () => {
    const host = await everythingHost();
    const asked = nextQuestion(host);
    const call = host.tools.call(caller('conv-d'), FORM_TOOL, {});
    answerElicitation(host, (await asked).id, 'decline');
    expect(allText((await call).result.content as { type: string; text?: string }[])).toContain('❌ User declined to provide the requested information.');
    expect(host.audit.query({ tool: 'elicitation/create', limit: 1 })[0]).toMatchObject({ reason: 'decline', decision: 'declined', outcome: 'declined' });
  });

  it('over streamable HTTP too: the question comes on the call stream and the answer goes back', async () => {
    const port = await startHttpEverything();
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { everything: { transport: 'streamable_http', url: `http://127.0.0.1:${port}/mcp` } }));
    const asked = nextQuestion(host);
    const call = host.tools.call(caller('conv-h'), FORM_TOOL, {});
    const request = await asked;
    if (request.mode !== 'form') throw new Error('expected a form');
    expect(request.conversationId).toBe('conv-h');
    answerElicitation(host, request.id, 'accept', { ...formDefaults(request.fields), name: 'Grace Hopper' });
    expect(allText((await call).result.content as { type: string; text?: string }[])).toContain('- Name: Grace Hopper');
  });

  it('nobody answers: after 10 minutes (the injected clock) the server hears cancel, outcome expired', async () => {
    const scheduler = new TestScheduler();
    const host = await everythingHost(scheduler);
    const seen = outcomes(host);
    const asked = nextQuestion(host);
    const call = host.tools.call(caller('conv-x'), FORM_TOOL, {});
    const request = await asked;
    expect(request.expiresAt - request.createdAt).toBe(10 * 60_000);
    scheduler.advance(10 * 60_000 - 1);
    expect(pendingOf(host, 'elicitation')).toHaveLength(1);
    scheduler.advance(1);
    expect(allText((await call).result.content as { type: string; text?: string }[])).toContain('⚠️ User cancelled the elicitation dialog.');
    expect(seen).toEqual(['expired']);
    expect(answerElicitation(host, request.id, 'accept', {})).toBe(false);
  });

  it('a url: the domain is shown before anything opens; javascript: is refused and the server told why', async () => {
    const host = await everythingHost();
    const asked = nextQuestion(host);
    const call = host.tools.call(caller('conv-u'), URL_TOOL, { url: 'https://example.com/authorize?x=1' });
    const request = await asked;
    expect(request).toMatchObject({ mode: 'url', url: 'https://example.com/authorize?x=1', domain: 'example.com', lookAlike: false });
    answerElicitation(host, request.id, 'accept');
    expect(allText((await call).result.content as { type: string; text?: string }[])).toContain('✅ User completed the URL elicitation flow.');

    const asking: ElicitationRequest[] = [];
    onAsked(host, 'elicitation', (r) => asking.push(r));
    const refused = await host.tools.call(caller('conv-u'), URL_TOOL, { url: 'javascript:alert(document.cookie)' });
    expect(refused.result.isError).toBe(true);
    expect(textOf(refused.result)).toContain('the url\'s scheme "javascript:" is refused');
    expect(asking).toEqual([]);
    expect(host.audit.query({ tool: 'elicitation/create', limit: 1 })[0]).toMatchObject({ decision: 'refused', outcome: 'refused', reason: 'ELICITATION_REFUSED', conversationId: 'conv-u' });
  });
});

describe('a page a call needs opened first (error -32042, server-everything unmodified)', () => {
  it('is the same url card; once opened the call is made again and ends with its answer', async () => {
    const host = await everythingHost();
    const firstPage = nextQuestion(host);
    const call = host.tools.call(caller('conv-p'), URL_TOOL, { url: 'https://example.com/authorize', errorPath: true });
    const prerequisite = await firstPage;
    // server-everything's prerequisite page, from the error's data.elicitations: a card, not a raw error.
    expect(prerequisite).toMatchObject({
      mode: 'url',
      url: 'https://modelcontextprotocol.io/',
      domain: 'modelcontextprotocol.io',
      message: 'Open this link to satisfy the prerequisite, then retry the request.',
      conversationId: 'conv-p',
    });
    // Made again, the call asks for its own page through elicitation/create: the second card.
    const secondPage = nextQuestion(host);
    answerElicitation(host, prerequisite.id, 'accept');
    const own = await secondPage;
    expect(own).toMatchObject({ mode: 'url', url: 'https://example.com/authorize' });
    answerElicitation(host, own.id, 'accept');
    const { result } = await call;
    expect(result.isError).toBeFalsy();
    expect(allText(result.content as { type: string; text?: string }[])).toContain('✅ User completed the URL elicitation flow.');
  });

  it('declined: the call ends with a result saying so, and is not made again', async () => {
    const host = await everythingHost();
    const page = nextQuestion(host);
    const call = host.tools.call(caller('conv-p'), URL_TOOL, { url: 'https://example.com/authorize', errorPath: true });
    const prerequisite = await page;
    const asking: ElicitationRequest[] = [];
    onAsked(host, 'elicitation', (r) => asking.push(r));
    answerElicitation(host, prerequisite.id, 'decline');
    const { result } = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Server "chatos::everything" needs a page opened in a browser before this call (JSON-RPC error -32042); the user declined to open it, so the call was not made again.');
    expect(asking).toEqual([]);
  });
});

describe('a server that asks while no call of it is in flight', () => {
  it('is refused, and the audit says why', async () => {
    const dir = tempDir('chatos-eliciting-');
    const trigger = path.join(dir, 'ask-now');
    const server = path.join(dir, 'server.mjs');
    // It asks once told to (a file appears), after its call has ended: nothing of it is in flight then.
    fs.writeFileSync(
      server,
      sdkServerSource(
        'eliciting',
        `import * as fs from 'node:fs';
let settled = Promise.resolve('never asked');
server.registerTool('ask_when_told', { description: 'asks later' }, async () => {
  settled = new Promise((resolve) => {
    const timer = setInterval(() => {
      if (!fs.existsSync(${JSON.stringify(trigger)})) return;
      clearInterval(timer);
      server.server.elicitInput({ message: 'Still there?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } })
        .then((r) => resolve('answered ' + r.action), (e) => resolve('refused: ' + e.message));
    }, 20);
  });
  return { content: [{ type: 'text', text: 'will ask when told' }] };
});
server.registerTool('last_answer', { description: 'what the question got' }, async () => ({ content: [{ type: 'text', text: await settled }] }));`,
      ),
    );
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { eliciting: { transport: 'stdio', command: process.execPath, args: [server] } }));
    const asking: ElicitationRequest[] = [];
    onAsked(host, 'elicitation', (r) => asking.push(r));
    expect(textOf((await host.tools.call(caller('conv-i'), 'mcp_eliciting_ask_when_told', {})).result)).toBe('will ask when told');
    fs.writeFileSync(trigger, '');
    await waitUntil(() => host.audit.query({ tool: 'elicitation/create' }).length > 0, 'the refusal in the audit');
    expect(host.audit.query({ tool: 'elicitation/create' })[0]).toMatchObject({ serverId: 'chatos::eliciting', decision: 'refused', outcome: 'refused', reason: 'IDLE_SERVER', appId: 'chatos' });
    expect(textOf((await host.tools.call(caller('conv-i'), 'mcp_eliciting_last_answer', {})).result)).toMatch(/^refused: .*server "chatos::eliciting" has no tool call in flight/);
    expect(asking).toEqual([]);
  });
});
