import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronFaceUrls } from '../../electron/appUrls.js';
import { API_CHANNEL, createIpcHandler, EVENT_CHANNEL, mainFrameCheck, type InvokeEvent } from '../../electron/ipcHandler.js';
import { createHostApiService } from '../../src/api/hostApiService.js';
import type { HostApiService } from '../../src/api/types.js';
import { internalsOf } from '../../src/core/modules/hostInternals.js';
import { McpAppViews } from '../../src/pageHost/mcpAppViews.js';
import { HostApiMethods } from '../../src/shared/hostApi.js';
import { startChatWorld } from '../helpers/chatWorld.js';
import { waitUntil } from '../helpers/gatewayHost.js';
import { repoRoot } from '../helpers/tempDir.js';
import { startTestDesktop } from './desktopFixture.js';

const MAIN_ID = 7;
const appFrame = { url: 'chatos://app/index.html#/agents', parent: null };
const fromApp: InvokeEvent = { senderFrame: appFrame, sender: { id: MAIN_ID } };
const SHOP = { transport: 'stdio', command: process.execPath, args: [path.join(repoRoot, 'test', 'fixtures', 'servers', 'mcpAppServer.mjs')] };

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

  /**
   * A view's call lives as long as the page that asked, as over `chatos serve` (test/serve/viewCallGone.test.ts): the
   * window closed, its renderer gone or the page reloaded leaves a call nobody will read, which the host would
   * otherwise hold (and wait for when it stops) until the server answers. The sender is an event emitter standing in
   * for Electron's WebContents (its binary cannot run here), sending the events Electron sends.
   */
  it.each([
    ['its window is closed', 'destroyed', []],
    ['its renderer process is gone', 'render-process-gone', [{}, { reason: 'crashed', exitCode: 1 }]],
    ['its page reloads', 'did-start-navigation', [{ url: 'chatos://app/index.html', isMainFrame: true, isSameDocument: false }]],
  ])("cancels a view's call when %s, and its server is told", async (_what, event, args) => {
    const world = await startChatWorld({ servers: { shop: SHOP } });
    world.provider.enqueue({ kind: 'reply', toolCalls: [{ id: 's1', name: 'mcp_shop_show_shop', arguments: { item: 'apples' } }] }, { kind: 'reply', text: 'Here is the shop.' });
    const turn = world.host.chat.send({ agentId: 'helper', text: 'open the shop' });
    await turn.done;
    const service = createHostApiService(world.host, { face: 'electron', urls: electronFaceUrls(world.host.setup.home.artifactsDir, () => '', new McpAppViews()), version: 'x' });
    const signals: (AbortSignal | undefined)[] = [];
    const api: Pick<HostApiService, 'handle'> = {
      handle: (raw, origin) => {
        signals.push(origin?.signal);
        return service.handle(raw, origin);
      },
    };
    const sender = Object.assign(new EventEmitter(), { id: MAIN_ID });
    const handler = createIpcHandler({ api, isOurFrame: mainFrameCheck(() => MAIN_ID) });
    const log = internalsOf(world.host).mcp.runtime.connections.logOf('chatos::shop');
    const said = (text: string) => log.entries().some((entry) => entry.text.includes(text));

    const reply = handler(
      { senderFrame: appFrame, sender },
      { method: 'mcpApps.callTool', params: { agentId: 'helper', conversationId: turn.conversationId, serverId: 'chatos::shop', tool: 'watch_orders', args: {} } },
    );
    await waitUntil(() => said('watch_orders waiting'), 'the call to reach the server', 20_000);
    // A view's iframe navigating and the page's own route changing are not the page going away.
    sender.emit('did-start-navigation', { url: 'chatos-view://0123456789abcdef0123456789abcdef/a', isMainFrame: false, isSameDocument: false });
    sender.emit('did-start-navigation', { url: 'chatos://app/index.html#/chat', isMainFrame: true, isSameDocument: true });
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(false);

    sender.emit(event, ...args);
    expect(signals[0]!.aborted).toBe(true);
    expect(await reply).toMatchObject({ ok: false });
    await waitUntil(() => said('watch_orders cancelled'), 'the server to be told of the cancellation', 20_000);
    await waitUntil(() => world.host.audit.query({ tool: 'mcp_shop_watch_orders' }).length > 0, 'the call to be audited', 20_000);
    expect(world.host.audit.query({ tool: 'mcp_shop_watch_orders' })).toMatchObject([{ outcome: 'cancelled' }]);
  });

  it('listens to a window once, however many calls it has in flight', async () => {
    const { handler } = await realApi();
    const sender = Object.assign(new EventEmitter(), { id: MAIN_ID });
    const warnings: Error[] = [];
    const warned = (warning: Error) => warnings.push(warning);
    process.on('warning', warned);
    try {
      const replies = await Promise.all(Array.from({ length: 20 }, () => handler({ senderFrame: appFrame, sender }, { method: 'agents.list', params: {} })));
      expect(replies.every((reply) => reply.ok)).toBe(true);
    } finally {
      process.off('warning', warned);
    }
    expect(['destroyed', 'render-process-gone', 'did-start-navigation'].map((name) => sender.listenerCount(name))).toEqual([1, 1, 1]);
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('uses the channel names the preload sends on', () => {
    const preload = fs.readFileSync(path.join(repoRoot, 'electron', 'preload.cts'), 'utf8');
    expect(preload).toContain(`const API_CHANNEL = '${API_CHANNEL}';`);
    expect(preload).toContain(`const EVENT_CHANNEL = '${EVENT_CHANNEL}';`);
  });
});
