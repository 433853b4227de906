import * as path from 'node:path';

/**
 * Where the desktop app's files are. Packaged, `app.getAppPath()` is
 * `…/resources/app.asar`: the main process reads inside it (Electron's fs
 * does), but a plugin's MCP server or a bundled server package is started
 * with a plain `node`, which cannot. electron-builder.yml unpacks those
 * (plugins/, templates/, node_modules/) to `app.asar.unpacked/`, and the
 * host is given that real folder as its app root, so every path it hands a
 * child process exists on disk. Unpackaged (from the repository) both roots
 * are the repository.
 */
export interface DesktopLayout {
  /** `app.getAppPath()`: read by this process only (the renderer, defaults). */
  appPath: string;
  /** The same files on a real path, for child processes. */
  unpackedRoot: string;
  builtinPluginsDir: string;
  defaultsDir: string;
  /** The Vite build of the renderer. */
  rendererDir: string;
  /** The compiled preload (CommonJS: a sandboxed preload cannot be an ES module). */
  preloadPath: string;
}

/** `electronDir` is the folder of the compiled main.js (dist/electron). */
export function desktopLayout(appPath: string, electronDir: string): DesktopLayout {
  const unpackedRoot = path.extname(appPath) === '.asar' ? `${appPath}.unpacked` : appPath;
  return {
    appPath,
    unpackedRoot,
    builtinPluginsDir: path.join(unpackedRoot, 'plugins'),
    defaultsDir: path.join(appPath, 'defaults'),
    rendererDir: path.join(appPath, 'dist', 'renderer'),
    preloadPath: path.join(electronDir, 'preload.cjs'),
  };
}

/**
 * The folder the bundled servers work in (`$sessionRoot`): where the app
 * was started from a terminal, but the user's home for a launch from a
 * desktop menu, whose working folder is `/` (never hand the whole disk to a
 * file server by accident).
 */
export function desktopSessionRoot(cwd: string, home: string): string {
  const resolved = path.resolve(cwd);
  return path.parse(resolved).root === resolved ? home : resolved;
}
