import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { builtElectronFile } from './builtElectron.js';

/**
 * The preload runs in Electron's sandboxed renderer, which this machine
 * cannot start. Its compiled file is run here as Electron would run it (a
 * CommonJS function with `require`), against TestContextBridge and
 * TestIpcRenderer, which implement the calls it makes.
 */
class TestIpcRenderer extends EventEmitter {
  readonly invoked: { channel: string; args: unknown[] }[] = [];
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.invoked.push({ channel, args });
    return Promise.resolve({ ok: true, result: { echoed: args[0] } });
  }
}

class TestContextBridge {
  readonly exposed = new Map<string, unknown>();
  exposeInMainWorld(key: string, api: unknown): void {
    if (this.exposed.has(key)) throw new Error(`${key} exposed twice`);
    this.exposed.set(key, api);
  }
}

function runPreload() {
  const ipcRenderer = new TestIpcRenderer();
  const contextBridge = new TestContextBridge();
  const required: string[] = [];
  const module = { exports: {} };
  const source = fs.readFileSync(builtElectronFile('preload.cjs'), 'utf8');
  const wrapped = vm.runInThisContext(`(function (exports, require, module) {${source}\n})`) as (e: unknown, r: (id: string) => unknown, m: unknown) => void;
  wrapped(
    module.exports,
    (id) => {
      required.push(id);
      if (id !== 'electron') throw new Error(`a sandboxed preload cannot require ${id}`);
      return { contextBridge, ipcRenderer };
    },
    module,
  );
  const chatos = contextBridge.exposed.get('chatos') as { invoke(r: unknown): Promise<unknown>; onEvent(cb: (e: unknown) => void): () => void; face: string };
  return { ipcRenderer, contextBridge, required, chatos };
}

describe('the preload (dist/electron/preload.cjs)', () => {
  it('is CommonJS that requires only electron, and exposes exactly window.chatos { invoke, onEvent, face }', () => {
    const { required, contextBridge, chatos } = runPreload();
    expect(required).toEqual(['electron']);
    expect([...contextBridge.exposed.keys()]).toEqual(['chatos']);
    expect(Object.keys(chatos).sort()).toEqual(['face', 'invoke', 'onEvent']);
    expect(chatos.face).toBe('electron');
  });

  it('sends a request on chatos:api only, as it is', async () => {
    const { ipcRenderer, chatos } = runPreload();
    const request = { method: 'host.info', params: {} };
    expect(await chatos.invoke(request)).toEqual({ ok: true, result: { echoed: request } });
    expect(ipcRenderer.invoked).toEqual([{ channel: 'chatos:api', args: [request] }]);
  });

  it('passes host events without the IPC event object, until unsubscribed', () => {
    const { ipcRenderer, chatos } = runPreload();
    const seen: unknown[] = [];
    const stop = chatos.onEvent((event) => seen.push(event));
    // The IPC event carries `sender` (the ipcRenderer): it must never reach the page.
    ipcRenderer.emit('chatos:event', { sender: ipcRenderer }, { type: 'agents.changed' });
    ipcRenderer.emit('chatos:other', {}, { type: 'ignored' });
    expect(seen).toEqual([{ type: 'agents.changed' }]);
    expect(ipcRenderer.listenerCount('chatos:event')).toBe(1);
    stop();
    expect(ipcRenderer.listenerCount('chatos:event')).toBe(0);
    ipcRenderer.emit('chatos:event', {}, { type: 'agents.changed' });
    expect(seen).toHaveLength(1);
  });
});
