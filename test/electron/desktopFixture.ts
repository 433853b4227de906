import { startDesktopHost, type DesktopHost } from '../../electron/desktopHost.js';
import { repoRoot, tempDir } from '../helpers/tempDir.js';
import { afterEachTest } from '../helpers/afterEachTest.js';

const started: DesktopHost[] = [];

afterEachTest(async () => {
  // stop() ends every server and backend the host started; a failing test must leave none behind.
  for (const desktop of started.splice(0)) await desktop.stop();
});

export interface TestDesktop {
  desktop: DesktopHost;
  home: string;
  pluginRoot: string;
  rendererDir: string;
}

/**
 * The desktop face's host as main.ts starts it, minus Electron: a real core
 * and HostApi on a temp home, with an extra plugin root `setup` fills, and
 * no built-in plugins or bundled defaults (their servers are not the point).
 */
export async function startTestDesktop(setup: (dirs: { home: string; pluginRoot: string; rendererDir: string }) => void = () => {}): Promise<TestDesktop> {
  const home = tempDir('chatos-el-home-');
  const pluginRoot = tempDir('chatos-el-plugins-');
  const rendererDir = tempDir('chatos-el-renderer-');
  setup({ home, pluginRoot, rendererDir });
  const desktop = await startDesktopHost({
    host: {
      home,
      appRoot: repoRoot,
      builtinPluginsDir: tempDir('chatos-el-builtin-'),
      defaultsDir: tempDir('chatos-el-defaults-'),
      extraPluginRoots: [pluginRoot],
      sessionRoot: tempDir('chatos-el-session-'),
    },
    rendererDir,
    version: '1.2.3',
    locale: 'en-US',
    watch: false,
  });
  started.push(desktop);
  return { desktop, home, pluginRoot, rendererDir };
}
