import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_CHANNEL, createIpcHandler, EVENT_CHANNEL, mainFrameCheck, type InvokeEvent } from '../../electron/ipcHandler.js';
import type { HostApiService } from '../../src/api/types.js';
import { HostApiMethods } from '../../src/shared/hostApi.js';
import { repoRoot } from '../helpers/tempDir.js';
import { startTestDesktop } from './desktopFixture.js';

const MAIN_ID = 7;
const appFrame = { url: 'chatos://app/index.html#/agents', parent: null };
const fromApp: InvokeEvent = { senderFrame: appFrame, sender: { id: MAIN_ID } };

/** The real HostApi service of a started host, with a count of what reached it. */
async function realApi() {
  const { desktop } = await startTestDesktop();
  desktop.host.agents.create({ id: 'keep', name: 'Keep' });
  const seen: unknown[] = [];
  const api: Pick<HostApiService, 'handle'> = {
    handle: (raw) => {
      seen.push(raw);
      return desktop.api.handle(raw);
    },
  };
  const handler = createIpcHandler({ api, isOurFrame: mainFrameCheck(() => MAIN_ID) });
  return { handler, seen, host: desktop.host };
}

describe('the chatos:api IPC handler', () => {
  it('returns the real reply of a real host to the main window', async () => {
    const { handler, host } = await realApi();
    const info = await handler(fromApp, { method: 'host.info', params: {} });
    expect(info).toEqual({ ok: true, result: { version: '1.2.3', home: host.setup.home.root, face: 'electron', locale: 'en-US' } });
    const agents = await handler(fromApp, { method: 'agents.list', params: {} });
    expect(agents.ok && HostApiMethods['agents.list'].result.parse(agents.result).agents.map((a) => a.id)).toEqual(['keep']);
    const deleted = await handler(fromApp, { method: 'agents.delete', params: { id: 'keep' } });
    expect(deleted).toEqual({ ok: true, result: { deleted: true } });
    expect(host.agents.get('keep')).toBeUndefined();
  });

  it.each([
    ['a delete without an id', { method: 'agents.delete', params: {} }, 'BAD_REQUEST'],
    ['an unknown method', { method: 'nope' }, 'UNKNOWN_METHOD'],
    ['a string', 'agents.delete', 'BAD_REQUEST'],
    ['null', null, 'BAD_REQUEST'],
    ['an extra key in params', { method: 'agents.delete', params: { id: 'keep', cascade: true } }, 'BAD_REQUEST'],
    ['an extra key in the envelope', { method: 'agents.delete', params: { id: 'keep' }, as: 'admin' }, 'BAD_REQUEST'],
  ])('refuses %s with a reason, and the core is untouched', async (_what, payload, code) => {
    const { handler, host } = await realApi();
    const reply = await handler(fromApp, payload);
    expect(reply.ok).toBe(false);
    if (!reply.ok) {
      expect(reply.error.code).toBe(code);
      expect(reply.error.message.length).toBeGreaterThan(10);
    }
    expect(host.agents.get('keep')).toBeDefined();
  });

  it.each([
    ['another webContents', { senderFrame: appFrame, sender: { id: MAIN_ID + 1 } }],
    ['a UI-app iframe', { senderFrame: { url: 'chatos-app://6163/__chatos/full.html', parent: appFrame }, sender: { id: MAIN_ID } }],
    ['an MCP App view iframe', { senderFrame: { url: 'chatos-view://0123456789abcdef0123456789abcdef/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', parent: appFrame }, sender: { id: MAIN_ID } }],
    ['a top frame showing an MCP App view', { senderFrame: { url: 'chatos-view://0123456789abcdef0123456789abcdef/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', parent: null }, sender: { id: MAIN_ID } }],
    ['a view that named the renderer as its url', { senderFrame: { url: 'chatos-view://app/index.html', parent: null }, sender: { id: MAIN_ID } }],
    ['an iframe that loaded the renderer', { senderFrame: { url: 'chatos://app/index.html', parent: appFrame }, sender: { id: MAIN_ID } }],
    ['a top frame on the web', { senderFrame: { url: 'https://evil.example/', parent: null }, sender: { id: MAIN_ID } }],
    ['a top frame on a look-alike origin', { senderFrame: { url: 'chatos://application/index.html', parent: null }, sender: { id: MAIN_ID } }],
    ['a frame that is gone', { senderFrame: null, sender: { id: MAIN_ID } }],
  ])('answers NOT_ALLOWED to %s without calling the api', async (_what, event) => {
    const { handler, seen, host } = await realApi();
    const reply = await handler(event as InvokeEvent, { method: 'agents.delete', params: { id: 'keep' } });
    expect(reply).toMatchObject({ ok: false, error: { code: 'NOT_ALLOWED' } });
    expect(seen).toEqual([]);
    expect(host.agents.get('keep')).toBeDefined();
  });

  it('refuses everything while the window is closed', async () => {
    let mainId: number | undefined = MAIN_ID;
    const isOurFrame = mainFrameCheck(() => mainId);
    expect(isOurFrame(appFrame, { id: MAIN_ID })).toBe(true);
    mainId = undefined;
    expect(isOurFrame(appFrame, { id: MAIN_ID })).toBe(false);
  });

  it('turns a throwing service into a FAILED reply, not a rejected invoke', async () => {
    const handler = createIpcHandler({ api: { handle: () => Promise.reject(new Error('disk on fire')) }, isOurFrame: () => true });
    expect(await handler(fromApp, { method: 'host.info' })).toEqual({ ok: false, error: { code: 'FAILED', message: 'disk on fire' } });
  });

  it('uses the channel names the preload sends on', () => {
    const preload = fs.readFileSync(path.join(repoRoot, 'electron', 'preload.cts'), 'utf8');
    expect(preload).toContain(`const API_CHANNEL = '${API_CHANNEL}';`);
    expect(preload).toContain(`const EVENT_CHANNEL = '${EVENT_CHANNEL}';`);
  });
});
