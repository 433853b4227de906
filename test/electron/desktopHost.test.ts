import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { desktopLayout, desktopSessionRoot } from '../../electron/appLayout.js';
import { startDesktopHost } from '../../electron/desktopHost.js';
import { HostApiMethods } from '../../src/shared/hostApi.js';
import { isAlive, trustPlugin, waitUntil, writeGatewayPlugin } from '../helpers/gatewayHost.js';
import { packBundle } from '../helpers/mcpbBundles.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';
import { startTestDesktop } from './desktopFixture.js';

describe('the desktop host (what main.ts starts and stops)', () => {
  it('stops once however often quit is asked, ending servers and keeping what was saved', async () => {
    const { desktop, home } = await startTestDesktop(({ pluginRoot }) => writeGatewayPlugin(pluginRoot, 'acme.tools', [{ appId: 'main', allowMain: true }]));
    trustPlugin(desktop.host, 'acme.tools');
    const saved = await desktop.api.handle({ method: 'agents.save', params: { agent: { name: 'Writer' } } });
    expect(saved.ok).toBe(true);
    const called = await desktop.api.handle({ method: 'uiApps.callTool', params: { pluginId: 'acme.tools', appId: 'main', tool: 'pid', args: {} } });
    const outcome = called.ok ? HostApiMethods['uiApps.callTool'].result.parse(called.result) : undefined;
    const first = outcome?.content[0];
    const pid = Number(first?.type === 'text' ? first.text : NaN);
    expect(isAlive(pid)).toBe(true);

    // before-quit and window-all-closed both arrive; they share one stop.
    const [a, b] = [desktop.stop(), desktop.stop()];
    expect(a).toBe(b);
    await Promise.all([a, b]);
    await waitUntil(() => !isAlive(pid), `server ${pid} to end`);
    await desktop.stop();

    // The admin DB was flushed: a new host on the same home sees the agent.
    const again = await startDesktopHost({ host: { home, appRoot: repoRoot, builtinPluginsDir: tempDir(), defaultsDir: tempDir() }, rendererDir: tempDir(), version: '1', watch: false });
    try {
      expect(again.host.agents.list().map((agent) => agent.name)).toEqual(['Writer']);
    } finally {
      await again.stop();
    }
  });

  it('holds a bundle the system asked it to open until the window takes it; one it will not open says why', async () => {
    const { desktop } = await startTestDesktop();
    const events: string[] = [];
    desktop.api.onEvent((event) => void (event.type === 'bundle.opened' && events.push(event.fileName)));
    const bundle = await packBundle();
    // As a second start hands its argv: the path relative to the folder it was started in.
    desktop.api.openBundle(path.basename(bundle), path.dirname(bundle));
    expect(events).toEqual(['weather.mcpb']);
    const taken = await desktop.api.handle({ method: 'plugins.takeOpenedBundle', params: { uploadId: 'opened-bundle-1' } });
    const opened = taken.ok ? HostApiMethods['plugins.takeOpenedBundle'].result.parse(taken.result).opened : undefined;
    expect(opened).toMatchObject({ fileName: 'weather.mcpb', preview: { pluginId: 'mcpb.weather', name: 'Weather', tools: [{ name: 'forecast' }] } });
    // The preview is the install's: the same upload installs it, as a dropped file's does.
    const installed = await desktop.api.handle({ method: 'plugins.installBundle', params: { uploadId: 'opened-bundle-1', config: { api_key: 'k-1' } } });
    expect(installed).toMatchObject({ ok: true, result: { pluginId: 'mcpb.weather' } });

    const link = path.join(tempDir('chatos-el-open-'), 'linked.mcpb');
    fs.symlinkSync(bundle, link);
    desktop.api.openBundle(link, '/');
    const refused = await desktop.api.handle({ method: 'plugins.takeOpenedBundle', params: { uploadId: 'opened-bundle-2' } });
    expect(refused).toMatchObject({ ok: false, error: { message: `${link} is a link, not a regular file` } });
    expect(await desktop.api.handle({ method: 'plugins.takeOpenedBundle', params: { uploadId: 'opened-bundle-3' } })).toEqual({ ok: true, result: { opened: null } });
  });

  it("gives the window the folder the system's picker chose, which installs as a typed path would", async () => {
    const folder = writeGatewayPlugin(tempDir('chatos-el-picked-'), 'acme.picked', [{ appId: 'main', allowMain: true }]);
    let answer: string | undefined = folder;
    const desktop = await startDesktopHost({
      host: { home: tempDir('chatos-el-home-'), appRoot: repoRoot, builtinPluginsDir: tempDir(), defaultsDir: tempDir() },
      rendererDir: tempDir(),
      version: '1',
      watch: false,
      // What main.ts hands over: Electron's dialog.showOpenDialog (openDirectory), which cannot run here.
      pickFolder: () => Promise.resolve(answer),
    });
    try {
      const picked = await desktop.api.handle({ method: 'plugins.pickFolder', params: {} });
      expect(picked).toEqual({ ok: true, result: { dir: folder } });
      expect(await desktop.api.handle({ method: 'plugins.installPreview', params: { source: folder } })).toMatchObject({ ok: true, result: { pluginId: 'acme.picked' } });
      answer = undefined;
      expect(await desktop.api.handle({ method: 'plugins.pickFolder', params: {} })).toEqual({ ok: true, result: { dir: null } });
    } finally {
      await desktop.stop();
    }
  });

  it('hands out artifact urls the chatos: scheme serves', async () => {
    const { desktop } = await startTestDesktop(({ pluginRoot }) => writeGatewayPlugin(pluginRoot, 'acme.tools', [{ appId: 'main', allowMain: true }]));
    trustPlugin(desktop.host, 'acme.tools');
    const called = await desktop.api.handle({ method: 'uiApps.callTool', params: { pluginId: 'acme.tools', appId: 'main', tool: 'images', args: {} } });
    const outcome = called.ok ? HostApiMethods['uiApps.callTool'].result.parse(called.result) : undefined;
    const artifacts = (outcome?.content ?? []).flatMap((item) => (item.type === 'artifact' ? [item] : []));
    expect(artifacts.length).toBeGreaterThan(0);
    for (const artifact of artifacts) {
      expect(artifact.url).toMatch(/^chatos:\/\/artifacts\//);
      const response = await desktop.appProtocol(new Request(artifact.url));
      expect(response.status, artifact.url).toBe(200);
      expect(response.headers.get('content-type')).toBe(artifact.mimeType);
      expect(Buffer.from(await response.arrayBuffer()).equals(fs.readFileSync(artifact.path))).toBe(true);
    }
  });
});

describe('the desktop layout', () => {
  it('gives child processes the unpacked folder of a packaged app, and this process the asar', () => {
    const resources = path.join(path.sep, 'opt', 'ChatOS', 'resources');
    const layout = desktopLayout(path.join(resources, 'app.asar'), path.join(resources, 'app.asar', 'dist', 'electron'));
    expect(layout).toEqual({
      appPath: path.join(resources, 'app.asar'),
      unpackedRoot: path.join(resources, 'app.asar.unpacked'),
      builtinPluginsDir: path.join(resources, 'app.asar.unpacked', 'plugins'),
      defaultsDir: path.join(resources, 'app.asar', 'defaults'),
      rendererDir: path.join(resources, 'app.asar', 'dist', 'renderer'),
      preloadPath: path.join(resources, 'app.asar', 'dist', 'electron', 'preload.cjs'),
    });
  });

  it('uses the repository as it is when run from a checkout', () => {
    const layout = desktopLayout(repoRoot, path.join(repoRoot, 'dist', 'electron'));
    expect(layout.unpackedRoot).toBe(repoRoot);
    expect(layout.builtinPluginsDir).toBe(path.join(repoRoot, 'plugins'));
    expect(layout.rendererDir).toBe(path.join(repoRoot, 'dist', 'renderer'));
  });

  it('works in the folder it was started from, but never in the filesystem root', () => {
    expect(desktopSessionRoot('/home/me/project', '/home/me')).toBe(path.resolve('/home/me/project'));
    expect(desktopSessionRoot('/', '/home/me')).toBe('/home/me');
  });
});
