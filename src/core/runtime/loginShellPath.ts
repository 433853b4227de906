import * as path from 'node:path';
import { shellEnv } from 'shell-env';

/**
 * A desktop app started from the dock, a launcher or a file manager gets the
 * session's minimal PATH, not the one the user's shell profile builds (nvm,
 * Homebrew, ~/.local/bin, pyenv): `npx`, `uvx` or `python` are then "not
 * found" although they work in a terminal. The desktop app asks the user's
 * login shell once at start, as VS Code and Hyper do, with `shell-env`
 * (sindresorhus; runs `$SHELL -ilc env` and parses the answer, with the
 * Oh My Zsh update and tmux prompts switched off), and gives servers that
 * PATH. What was found, or why not, is kept for diagnostics.
 */
/** Why servers get the PATH this process has, in words (the diagnostics say it by `reason`). */
export const INHERITED_WHY = { started: 'the PATH this process was started with', windows: "the user's PATH, as Windows gives it to apps" } as const;

export type ServerPathSource =
  | { kind: 'inherited'; path: string; why: string; reason: keyof typeof INHERITED_WHY }
  | { kind: 'login-shell'; path: string; shell: string; ms: number }
  | { kind: 'login-shell-failed'; path: string; shell: string; error: string };

/** Past this the shell is given up on: a profile that waits for input must not hold the window back. */
export const LOGIN_SHELL_TIMEOUT_MS = 10_000;

let current: ServerPathSource | undefined;

/** What the PATH servers get came from (the process's own PATH unless a login shell was asked). */
export function serverPathSource(env: NodeJS.ProcessEnv = process.env): ServerPathSource {
  return current ?? { kind: 'inherited', path: env.PATH ?? '', why: INHERITED_WHY.started, reason: 'started' };
}

/** The login shell's PATH first, then any folder of `inherited` it lacks: nothing found before is lost. */
export function mergePaths(login: string, inherited: string | undefined, delimiter = path.delimiter): string {
  const seen = new Set<string>();
  const dirs: string[] = [];
  for (const dir of [...login.split(delimiter), ...(inherited ?? '').split(delimiter)]) {
    if (!dir || seen.has(dir)) continue;
    seen.add(dir);
    dirs.push(dir);
  }
  return dirs.join(delimiter);
}

/** Asks `shell` (default `$SHELL`, else shell-env's default shell) for its login PATH. */
export async function loginShellPath(shell: string | undefined, timeoutMs = LOGIN_SHELL_TIMEOUT_MS): Promise<{ ok: true; path: string } | { ok: false; error: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    timer.unref();
  });
  try {
    const env = await Promise.race([shellEnv(shell), timeout]);
    const found = env.PATH;
    return typeof found === 'string' && found !== '' ? { ok: true, path: found } : { ok: false, error: 'its environment has no PATH' };
  } catch (error) {
    return { ok: false, error: (error as Error).message.split('\n')[0] ?? String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Once, at the desktop app's start: sets `env.PATH` (the host's environment,
 * which every server and backend inherits PATH from) to the login shell's,
 * merged with the inherited one. Windows has no login shell to ask: its GUI
 * apps get the user's PATH from the registry already.
 */
export async function adoptLoginShellPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<ServerPathSource> {
  const inherited = env.PATH;
  if (platform === 'win32') {
    current = { kind: 'inherited', path: inherited ?? '', why: INHERITED_WHY.windows, reason: 'windows' };
    return current;
  }
  const shell = env.SHELL || undefined;
  const started = Date.now();
  const answer = await loginShellPath(shell);
  const named = shell ?? 'the default shell';
  if (answer.ok) {
    env.PATH = mergePaths(answer.path, inherited);
    current = { kind: 'login-shell', path: env.PATH, shell: named, ms: Date.now() - started };
  } else {
    current = { kind: 'login-shell-failed', path: inherited ?? '', shell: named, error: answer.error };
  }
  return current;
}
