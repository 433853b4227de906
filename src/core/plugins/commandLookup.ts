import * as fs from 'node:fs';
import * as path from 'node:path';
import { ownValue } from '../../shared/ownKeys.js';
import type { Problem } from '../../shared/problems.js';
import { formatJsonPath } from '../../shared/problemText.js';
import type { ValidatedPlugin } from './validatePlugin.js';

/**
 * `chatos validate`'s look for each stdio server's `command` on the PATH the
 * server would get: the plugin's own `ai.mcp.env.PATH` when it sets one,
 * else the host's (servers inherit it; see serverEnvironment.ts). Not part
 * of every scan: what is installed changes without the plugin changing, and
 * a scan's answer is cached by the plugin's files.
 */

const isWindows = (platform: NodeJS.Platform) => platform === 'win32';

/** A variable by name; on Windows names are case-insensitive (`Path`). */
function variable(env: Readonly<Record<string, string | undefined>>, name: string, platform: NodeJS.Platform): string | undefined {
  if (!isWindows(platform)) return ownValue(env, name);
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (!isWindows(platform)) fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where a bare program name is found on `pathValue` (with PATHEXT on Windows); undefined if nowhere. */
export function findOnPath(command: string, pathValue: string, platform: NodeJS.Platform = process.platform, pathExt = ''): string | undefined {
  const extensions = isWindows(platform) ? ['', ...pathExt.split(';').filter(Boolean)] : [''];
  for (const dir of pathValue.split(isWindows(platform) ? ';' : ':')) {
    // An empty entry means "the current folder", which is wherever the host was started: not something to count on.
    if (!dir) continue;
    for (const ext of extensions) {
      const candidate = path.join(dir, command + ext);
      if (isExecutableFile(candidate, platform)) return candidate;
    }
  }
  return undefined;
}

const hasPathSeparator = (command: string) => command.includes('/') || command.includes('\\');

/**
 * A warning for each app whose stdio server's command cannot be found: a
 * bare name nowhere on the PATH the server would get, or an absolute path
 * that is no executable file. A relative path is resolved against wherever
 * the host is started, which validation cannot know (the run plan warns
 * about it instead).
 */
export function missingCommandProblems(plugin: ValidatedPlugin, hostEnv: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Problem[] {
  const problems: Problem[] = [];
  plugin.manifest?.apps.forEach((app, index) => {
    const mcp = app.ai?.mcp;
    if (!mcp || mcp.entry === undefined) return;
    const at = formatJsonPath(['apps', index, 'ai', 'mcp', 'command']);
    const command = mcp.command;
    const warn = (message: string, hint: string) => problems.push({ severity: 'warning', code: 'COMMAND_NOT_FOUND', file: plugin.manifestFile, path: at, message, hint });
    if (hasPathSeparator(command)) {
      if (path.isAbsolute(command) && !isExecutableFile(command, platform)) {
        warn(`command ${command} is not an executable file, so the server of app "${app.id}" cannot start`, 'install the program there, or name a program on PATH');
      }
      return;
    }
    const set = mcp.env.PATH;
    const own = typeof set === 'string' ? set : undefined;
    const pathValue = own ?? variable(hostEnv, 'PATH', platform) ?? '';
    if (findOnPath(command, pathValue, platform, variable(hostEnv, 'PATHEXT', platform) ?? '')) return;
    const which = own !== undefined ? 'the PATH the plugin sets in ai.mcp.env' : "the host's PATH, which servers inherit";
    warn(
      `command "${command}" of app "${app.id}" is not found on ${which} (${pathValue || 'empty'}), so its server cannot start here`,
      `install ${command}, or give its full path in "command"; if the app (or chatos serve) is started from another shell, check that ${command} is on that PATH`,
    );
  });
  return problems;
}
