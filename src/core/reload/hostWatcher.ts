import type { ScanResult } from '../contributions/pluginScanner.js';
import { scanChanged, type RescanPlugins } from '../operations/rescanPlugins.js';
import { anyChanged, ChangeWatcher, fileChangedCheck } from './changeWatcher.js';

export interface HostWatcherDeps {
  mcpConfigFile: string;
  /** The plugin roots as they are now: they change while the host runs (`chatos roots add`, `chatos dev`). */
  pluginRoots(): readonly { dir: string }[];
  /** The files listing remembered roots and development links: a change there changes which roots are watched. */
  rootsFiles: readonly string[];
  /** A scan of the plugin roots, not yet applied (re-reads only what changed). */
  scan(): ScanResult;
  rescan: Pick<RescanPlugins, 'rescan' | 'apply'>;
  reloadMcp(): Promise<unknown>;
}

export interface WatchTimes {
  /** Quiet time after the last change before acting (default 100 ms). */
  debounceMs?: number;
  /** How often files are polled besides fs.watch (default 2 s; the plugin roots, a scan each time, thrice that). */
  pollMs?: number;
}

/**
 * Hot reload's policy: mcp.yaml, the plugin roots and the files that list
 * roots are each watched (fs.watch, with polling for the changes it misses),
 * debounced. An mcp.yaml change reloads the servers. A plugin change
 * rescans, and reloads the servers when plugins came, went or changed. The
 * plugin poll is a scan itself: what it finds is applied at once (so the
 * events name the edited plugins and their open pages reload), and the
 * reload follows with the debounce. A change to the roots' files watches the
 * new set of roots and scans them now.
 */
export class HostWatcher {
  constructor(private readonly deps: HostWatcherDeps) {}

  /** Starts watching; returns the function that stops. */
  watch(times: WatchTimes = {}): () => void {
    const { deps } = this;
    const debounceMs = times.debounceMs ?? 100;
    const pollMs = times.pollMs ?? 2_000;
    const config = new ChangeWatcher([{ path: deps.mcpConfigFile }], async () => void (await deps.reloadMcp()), { debounceMs, pollMs, poll: fileChangedCheck(deps.mcpConfigFile) });
    let pluginsChanged = false;
    const rescanAndReload = async () => {
      const result = deps.rescan.rescan();
      if (scanChanged(result) || pluginsChanged) await deps.reloadMcp();
      pluginsChanged = false;
    };
    const watchPlugins = () =>
      new ChangeWatcher(
        deps.pluginRoots().map((root) => ({ path: root.dir, recursive: true })),
        rescanAndReload,
        {
          debounceMs,
          pollMs: pollMs * 3,
          poll: () => {
            const result = deps.scan();
            if (!scanChanged(result)) return false;
            deps.rescan.apply(result);
            pluginsChanged = true;
            return true;
          },
        },
      );
    let plugins = watchPlugins();
    // Another process remembered or forgot a root: watch the new set of roots, and scan them now.
    const roots = new ChangeWatcher(
      deps.rootsFiles.map((file) => ({ path: file })),
      async () => {
        plugins.dispose();
        plugins = watchPlugins();
        plugins.start();
        await rescanAndReload();
      },
      { debounceMs, pollMs, poll: anyChanged(...deps.rootsFiles.map(fileChangedCheck)) },
    );
    config.start();
    plugins.start();
    roots.start();
    return () => {
      config.dispose();
      plugins.dispose();
      roots.dispose();
    };
  }
}
