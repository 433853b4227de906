// The git operations of the Git app, shared by its MCP server (for agents)
// and its backend (for the page). They run the `git` program, not a
// library: a JavaScript git (isomorphic-git) draws no graph log, knows no
// worktrees, sparse checkouts or the user's config, so its answers would
// differ from what the user's own `git` says about the same repository.
// Each run goes through ./invoke.mjs, which keeps the repository's own config
// from naming a program git would run; ./resolveRepo.mjs decides which
// repository a call may touch (docs/using/git.md#safety).
import * as path from 'node:path';
import { git, GitProblem, LIMITS } from './invoke.mjs';
import { inside, resolveRepo } from './resolveRepo.mjs';

export { GitProblem, LIMITS, resolveRepo };

/**
 * A branch name as the user or model gave it, refused before git sees it if
 * it could be read as an option or holds what no ref may; then git's own
 * rule (`git check-ref-format --branch`).
 */
export async function checkBranchName(repo, name, field = 'branch') {
  if (typeof name !== 'string' || name === '') throw new GitProblem(`"${field}" must be a branch name`);
  if (name.length > 255) throw new GitProblem(`"${field}" is ${name.length} characters long; a branch name has at most 255`);
  if (name.startsWith('-')) throw new GitProblem(`"${field}" (${name}) starts with "-", which git would read as an option; branch names cannot start with "-"`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f ~^:?*[\\;|&$`'"<>(){}!]/.test(name))
    throw new GitProblem(
      `"${field}" (${JSON.stringify(name)}) holds a character a branch name cannot have (spaces, control characters, ~ ^ : ? * [ \\ or shell characters like ; | & $); use letters, digits, "/", ".", "_" and "-"`,
    );
  const checked = await git(repo, ['check-ref-format', '--branch', name], { allowFailure: true });
  if (checked.code !== 0) throw new GitProblem(`"${field}" (${name}) is not a valid branch name (git check-ref-format refuses it)`);
  return name;
}

/** A revision to reset to or start a branch at: a name or hash, never an option. */
async function checkRevision(repo, revision, field) {
  if (typeof revision !== 'string' || revision === '' || revision.length > 255 || revision.startsWith('-') || /[\s\0;|&$`'"<>]/.test(revision)) {
    throw new GitProblem(`"${field}" (${JSON.stringify(revision)}) must be a branch, tag or commit (no spaces, no leading "-", no shell characters)`);
  }
  const found = await git(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], { allowFailure: true });
  if (found.code !== 0) throw new GitProblem(`"${field}" (${revision}) names no commit in this repository; see the branches or the log`);
  return found.text.trim();
}

/** Paths inside the repository, as git pathspecs taken literally (GIT_LITERAL_PATHSPECS). */
function checkPaths(repo, paths) {
  if (!Array.isArray(paths) || paths.length === 0) throw new GitProblem('"paths" must list at least one file');
  if (paths.length > LIMITS.paths) throw new GitProblem(`"paths" lists ${paths.length} files; at most ${LIMITS.paths} at once`);
  return paths.map((p, i) => {
    if (typeof p !== 'string' || p === '' || p.includes('\0')) throw new GitProblem(`"paths.${i}" must be a file path`);
    const full = path.resolve(repo, p);
    if (!inside(full, repo)) throw new GitProblem(`"paths.${i}" (${p}) is outside the repository ${repo}`);
    return path.relative(repo, full) || '.';
  });
}

const cut = (result, what) => (result.truncated ? `${result.text}\n… (${what} cut at ${LIMITS.outputBytes / 1024} KB)` : result.text);

/** Branch, upstream, ahead/behind and each changed file with its staged (index) and unstaged (worktree) state. */
export async function status(repo) {
  // dirty: git does not look into a submodule's work tree, which would run git there under the submodule's own config.
  const result = await git(repo, ['status', '--porcelain=v1', '--branch', '-z', '--untracked-files=all', '--ignore-submodules=dirty'], { maxBytes: LIMITS.outputBytes * 4 });
  const parts = result.text.split('\0');
  const head = parts.shift() ?? '';
  const branchLine = head.replace(/^## /, '');
  const [names, tracking = ''] = branchLine.split(' [');
  const [branch, upstream] = (names ?? '').split('...');
  const files = [];
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i];
    if (!entry) continue;
    const file = { index: entry[0], worktree: entry[1], path: entry.slice(3) };
    if (file.index === 'R' || file.index === 'C') file.from = parts[++i];
    files.push(file);
  }
  return {
    repo,
    branch: branch?.replace(/^No commits yet on /, '') ?? '',
    upstream: upstream ?? null,
    ahead: Number(/ahead (\d+)/.exec(tracking)?.[1] ?? 0),
    behind: Number(/behind (\d+)/.exec(tracking)?.[1] ?? 0),
    staged: files.filter((f) => f.index !== ' ' && f.index !== '?'),
    unstaged: files.filter((f) => f.worktree !== ' '),
    truncated: result.truncated,
  };
}

/** The staged or unstaged diff, of some paths or all, cut at the output limit. */
export async function diff(repo, { staged = false, paths } = {}) {
  const args = ['diff', '--no-ext-diff', '--no-textconv', '--no-color', '--ignore-submodules=dirty', '--submodule=short'];
  if (staged) args.push('--cached');
  args.push('--');
  if (paths?.length) args.push(...checkPaths(repo, paths));
  const result = await git(repo, args);
  return { diff: cut(result, 'diff'), truncated: result.truncated };
}

/** The history as a graph, newest first, at most `maxCount` commits (500). */
export async function log(repo, { maxCount = 50, graph = true, all = false } = {}) {
  const count = Math.max(1, Math.min(LIMITS.logEntries, Math.trunc(Number(maxCount) || 50)));
  const args = ['log', `--max-count=${count}`, '--no-color', '--date=short', '--format=%h %ad %an%d %s'];
  if (graph) args.push('--graph');
  if (all) args.push('--all');
  const result = await git(repo, args, { allowFailure: true });
  if (result.code !== 0) {
    if (/does not have any commits yet/.test(result.stderr)) return { log: '', truncated: false };
    throw new GitProblem(`git log failed: ${result.stderr.trim()}`);
  }
  return { log: cut(result, 'log'), truncated: result.truncated };
}

/** Local branches: name, commit, upstream, and which is checked out. */
export async function branches(repo) {
  const result = await git(repo, ['for-each-ref', '--format=%(HEAD)%00%(refname:short)%00%(objectname:short)%00%(upstream:short)%00%(subject)', 'refs/heads']);
  const list = result.text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [head, name, commit, upstream, subject] = line.split('\0');
      return { name, commit, upstream: upstream || null, subject, current: head === '*' };
    });
  return { current: list.find((b) => b.current)?.name ?? null, branches: list };
}

export async function stage(repo, paths) {
  const checked = checkPaths(repo, paths);
  await git(repo, ['add', '--all', '--', ...checked]);
  return status(repo);
}

export async function unstage(repo, paths) {
  const checked = checkPaths(repo, paths);
  // reset (not restore --staged) also works before the first commit.
  await git(repo, ['reset', '--quiet', '--', ...checked], { allowFailure: true }).then((r) => {
    if (r.code > 1) throw new GitProblem(`git reset failed: ${r.stderr.trim()}`);
  });
  return status(repo);
}

/** Commits what is staged with the message, passed on stdin as written (a line starting with # is kept); hooks do not run. */
export async function commit(repo, message) {
  if (typeof message !== 'string' || message.trim() === '') throw new GitProblem('"message" must not be empty: say what the commit changes');
  const bytes = Buffer.byteLength(message, 'utf8');
  if (bytes > LIMITS.messageBytes) throw new GitProblem(`"message" is ${bytes} bytes; a commit message may have at most ${LIMITS.messageBytes} bytes (${LIMITS.messageBytes / 1024} KB): shorten it`);
  const staged = (await status(repo)).staged;
  if (staged.length === 0) throw new GitProblem('nothing is staged: stage the files to commit first');
  await git(repo, ['commit', '--no-verify', '--quiet', '--cleanup=whitespace', '--file=-'], { input: message });
  const head = await git(repo, ['log', '-1', '--format=%h %s']);
  return { committed: head.text.trim(), files: staged.length };
}

/** Switches to a branch (creating it from `startPoint`, else HEAD, when `create`); git refuses if local changes would be lost. */
export async function checkout(repo, { branch, create = false, startPoint } = {}) {
  await checkBranchName(repo, branch);
  const args = ['switch', '--no-guess'];
  if (create) {
    args.push('--create', branch);
    if (startPoint !== undefined) args.push(await checkRevision(repo, startPoint, 'startPoint'));
  } else {
    const exists = await git(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `refs/heads/${branch}`], { allowFailure: true });
    if (exists.code !== 0) throw new GitProblem(`there is no branch "${branch}"; list them with the branches tool, or set "create": true`);
    args.push(branch);
  }
  await git(repo, args);
  return branches(repo);
}

/** Throws away unstaged changes of tracked files (what `git restore` does): they cannot be got back. */
export async function discard(repo, paths) {
  const checked = checkPaths(repo, paths);
  await git(repo, ['restore', '--worktree', '--', ...checked]);
  return status(repo);
}

/** Moves the branch to `target` (soft, mixed or hard; hard throws away every uncommitted change). */
export async function reset(repo, { mode = 'mixed', target = 'HEAD' } = {}) {
  if (!['soft', 'mixed', 'hard'].includes(mode)) throw new GitProblem('"mode" must be soft, mixed or hard');
  const commitId = await checkRevision(repo, target, 'target');
  await git(repo, ['reset', '--quiet', `--${mode}`, commitId]);
  return status(repo);
}
