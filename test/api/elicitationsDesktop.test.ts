import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHostApiService } from '../../src/api/hostApiService.js';
import type { HostEventMessage } from '../../src/shared/hostApi.js';
import { caller, startTestHost, writeMcpYaml } from '../helpers/gatewayHost.js';
import { repoRoot } from '../helpers/tempDir.js';

/**
 * A url question in the desktop app: its pages may open no window, so the
 * desktop face's system browser opens the page the user accepted — that
 * url only, only on accept, and after the answer is taken. Against the
 * asking fixture server over stdio.
 */

const ASKING_SERVER = path.join(repoRoot, 'test', 'fixtures', 'servers', 'askingServer.mjs');
const urls = { uiAppUrl: () => '/ui', artifactUrl: (file: string) => `/artifacts${file}` };

describe('a url question in the desktop app', () => {
  it('opens the accepted url in the system browser, and nothing for a decline', async () => {
    const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { asking: { transport: 'stdio', command: process.execPath, args: [ASKING_SERVER] } }));
    const opened: string[] = [];
    const api = createHostApiService(host, { face: 'electron', urls, version: '9.9.9', locale: 'en-US', openExternal: (url) => opened.push(url) });
    const asked = () =>
      new Promise<string>((resolve) => {
        const off = api.onEvent((event: HostEventMessage) => {
          if (event.type !== 'question' || event.change !== 'asked' || event.question.kind !== 'elicitation') return;
          off();
          resolve(event.question.request.id);
        });
      });
    const textOf = async (running: ReturnType<typeof host.tools.call>) => (await running).result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');

    let question = asked();
    let running = host.tools.call(caller('conv-desk'), 'mcp_asking_open_page', { url: 'https://accounts.example.com/sign-in' });
    expect(await api.handle({ method: 'questions.respond', params: { id: await question, answer: { kind: 'elicitation', action: 'decline' } } })).toEqual({ ok: true, result: { answered: true } });
    expect(await textOf(running)).toBe('decline');
    expect(opened).toEqual([]);

    question = asked();
    running = host.tools.call(caller('conv-desk'), 'mcp_asking_open_page', { url: 'https://accounts.example.com/sign-in?step=2' });
    const id = await question;
    expect(await api.handle({ method: 'questions.respond', params: { id, answer: { kind: 'elicitation', action: 'accept' } } })).toEqual({ ok: true, result: { answered: true } });
    expect(await textOf(running)).toBe('accept');
    expect(opened).toEqual(['https://accounts.example.com/sign-in?step=2']);
    // An answer to a question already gone opens nothing again.
    expect(await api.handle({ method: 'questions.respond', params: { id, answer: { kind: 'elicitation', action: 'accept' } } })).toEqual({ ok: true, result: { answered: false } });
    expect(opened).toHaveLength(1);
    api.dispose();
  });
});
