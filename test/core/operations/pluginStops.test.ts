import { describe, expect, it } from 'vitest';
import { PluginStops, type PluginStopsDeps } from '../../../src/core/operations/pluginStops.js';

/** What a rescan stops, with the backends, servers and trust watch recording what they were asked. */

class TestStops implements PluginStopsDeps {
  readonly backends: string[] = [];
  readonly servers: string[] = [];
  readonly warnings: string[] = [];
  notRunnableCalls = 0;
  failNotRunnable = false;
  readonly logger = { warn: (message: string) => void this.warnings.push(message) };
  async stopBackend(pluginId: string): Promise<void> {
    this.backends.push(pluginId);
  }
  async retireServer(serverId: string): Promise<void> {
    this.servers.push(serverId);
  }
  async stopNotRunnable(): Promise<void> {
    this.notRunnableCalls++;
    if (this.failNotRunnable) throw new Error('a process would not die');
  }
}

describe('PluginStops', () => {
  it("ends an edited plugin's backend and each of its servers' instances", async () => {
    const deps = new TestStops();
    await new PluginStops(deps).edited('acme.notes', ['acme::a', 'acme::b']);
    expect(deps.backends).toEqual(['acme.notes']);
    expect(deps.servers).toEqual(['acme::a', 'acme::b']);
  });

  it('starts ending what may no longer run without failing the rescan: a failure is logged', async () => {
    const deps = new TestStops();
    deps.failNotRunnable = true;
    expect(() => new PluginStops(deps).notRunnable()).not.toThrow();
    expect(deps.notRunnableCalls).toBe(1);
    await expect.poll(() => deps.warnings).toEqual(['stopping what a plugin that may no longer run ran failed: a process would not die']);
  });
});
