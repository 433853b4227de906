// One git run on a repository the user did not necessarily write: an
// argument list (no shell), a fixed environment, and command-line config
// that takes back every program the repository's own config names
// (./repoConfig.mjs), so that reading or staging a folder runs no program
// of the folder's choosing (docs/using/git.md#safety).
import { runProgram } from './run.mjs';
import { FIXED_CONFIG, overridesFor, parseConfigList, UnsettableKey } from './repoConfig.mjs';

export const LIMITS = {
  /** A diff or log answer is cut here (and says so). */
  outputBytes: 256 * 1024,
  /** A commit message longer than this is refused, not cut: a cut message would be committed wrong. */
  messageBytes: 16 * 1024,
  logEntries: 500,
  paths: 1000,
  timeoutMs: 30_000,
  /** A repository's config listed longer than this is refused: a cut listing could miss a program key. */
  configBytes: 4 * 1024 * 1024,
};

/** A problem the caller can fix (a path outside the roots, a bad branch name): its message says what to change. */
export class GitProblem extends Error {
  constructor(message) {
    super(message);
    this.name = 'GitProblem';
  }
}

/**
 * The environment git runs in: no prompts, no pager, no editor, no optional
 * locks, fixed language; nothing that points git at another repository or
 * object store; and no transport at all. No tool here talks to a remote, but
 * a partial clone fetches a missing object on its own (on diff, log or
 * switch), through a remote the repository's config names: an `ext::`
 * command, an upload-pack program, an ssh command. GIT_ALLOW_PROTOCOL
 * overrides every protocol.* setting; "none" is no transport git has.
 */
function gitEnv() {
  const env = {
    ...process.env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'true',
    GIT_SEQUENCE_EDITOR: 'true',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_LITERAL_PATHSPECS: '1',
    GIT_ALLOW_PROTOCOL: 'none',
    LC_ALL: 'C',
    LANG: 'C',
  };
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES']) delete env[name];
  return env;
}

const fixedArgs = FIXED_CONFIG.flatMap((entry) => ['-c', entry]);

/**
 * The `-c` arguments for this repository, from its config as git reads it
 * (includes followed, the worktree's config too). Listing config runs no
 * program. It is read again on every run: a cached answer would miss a
 * config changed since.
 */
async function overridesOf(repo, env) {
  const listed = await runProgram('git', [...fixedArgs, '-C', repo, 'config', '--list', '--show-scope', '-z'], { env, maxBytes: LIMITS.configBytes, timeoutMs: LIMITS.timeoutMs });
  if (listed.truncated) throw new GitProblem(`the git config of ${repo} is over ${LIMITS.configBytes / 1024 / 1024} MB; the git tools read no repository whose config they cannot read whole`);
  if (listed.code !== 0) {
    const said = listed.stderr.trim().split('\n').slice(-3).join('\n');
    throw new GitProblem(`git config failed: ${said || `exit code ${listed.code}`} (the Git app needs git 2.26 or newer and a config git can read)`);
  }
  try {
    return overridesFor(parseConfigList(listed.stdout.toString('utf8')));
  } catch (error) {
    if (!(error instanceof UnsettableKey)) throw error;
    throw new GitProblem(`the git config of ${repo} names a program under "${error.key}", a key with "=" in its name that git cannot be told to ignore; the git tools do not work on this repository`);
  }
}

export async function git(repo, args, options = {}) {
  const { maxBytes = LIMITS.outputBytes, input, allowFailure = false } = options;
  const env = gitEnv();
  // The folder's overrides first, the fixed config last: of two -c settings of a key, git keeps the last.
  const config = [...(await overridesOf(repo, env)), ...fixedArgs];
  const result = await runProgram('git', [...config, '-C', repo, ...args], { env, input, maxBytes, timeoutMs: LIMITS.timeoutMs });
  if (result.code !== 0 && !allowFailure) {
    const said = result.stderr.trim().split('\n').slice(-6).join('\n') || `exit code ${result.code}`;
    throw new GitProblem(`git ${args[0]} failed: ${said}`);
  }
  return { ...result, text: result.stdout.toString('utf8') };
}
