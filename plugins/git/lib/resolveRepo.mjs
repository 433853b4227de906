// Which repository a call may work on. The folder the call names is only
// where git starts looking: a `.git` file (`gitdir: <elsewhere>`), a linked
// worktree's `commondir`, `core.worktree`, links in the git dir and
// `objects/info/alternates` (./gitData.mjs) can each put the history, the
// index, the refs or the objects somewhere else. Every one of those places
// must lie inside the folders the call may work in, or git would read (log)
// and write (stage, commit) a repository the user never gave.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { checkGitData } from './gitData.mjs';
import { git, GitProblem } from './invoke.mjs';

export const inside = (folder, root) => {
  const relative = path.relative(root, folder);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/**
 * The repository a call names, checked against the folders it may work in
 * (an agent's workspace roots; the folders the user added on the page). A
 * relative path is taken from the only root; links are resolved before the
 * check; and the repository's top folder, git dir, common dir, what links
 * in them lead to and alternate object stores must all lie inside a root
 * (a root that is a subfolder of a repository does not open the whole
 * repository).
 */
export async function resolveRepo(requested, roots) {
  if (roots.length === 0)
    throw new GitProblem("no workspace folders are set for this conversation: add the repository's folder to the agent's Workspace folders (or the conversation's Folders) and try again");
  let wanted = requested;
  if (wanted === undefined || wanted === '') {
    if (roots.length !== 1) throw new GitProblem(`name the repository: "repo" must be one of the workspace folders or a folder inside one (${roots.join(', ')})`);
    wanted = roots[0];
  }
  if (typeof wanted !== 'string' || wanted.length > 4096 || wanted.includes('\0')) throw new GitProblem('"repo" must be a folder path of at most 4096 characters');
  if (!path.isAbsolute(wanted)) {
    if (roots.length !== 1) throw new GitProblem(`"repo" is relative (${wanted}) and there are several workspace folders: give an absolute path inside one of ${roots.join(', ')}`);
    wanted = path.resolve(roots[0], wanted);
  }
  const realRoots = [];
  for (const root of roots) realRoots.push(await fs.realpath(root).catch(() => path.resolve(root)));
  const inRoots = (folder) => realRoots.some((root) => inside(folder, root));
  let real;
  try {
    real = await fs.realpath(wanted);
  } catch {
    throw new GitProblem(`${wanted} does not exist; name a folder inside the workspace folders (${roots.join(', ')})`);
  }
  if (!inRoots(real))
    throw new GitProblem(`${wanted} is outside the workspace folders (${roots.join(', ')}); the git tools work only inside them: add the folder to the agent's Workspace folders if you mean it`);
  const stat = await fs.stat(real);
  if (!stat.isDirectory()) throw new GitProblem(`${wanted} is not a folder; name the repository's folder`);
  // --git-common-dir may be relative to the folder git ran in; --absolute-git-dir never is.
  const where = await git(real, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'], { allowFailure: true });
  if (where.code !== 0) throw new GitProblem(`${wanted} is not in a git repository; run git init there first, or name another folder`);
  const lines = where.text.replace(/\n$/, '').split('\n');
  if (lines.length !== 3) throw new GitProblem(`the repository of ${wanted} has a git dir whose path holds a line break; the git tools do not work on it`);
  const [top, gitDir, commonDir] = lines;
  const topLevel = await fs.realpath(top);
  if (!inRoots(topLevel))
    throw new GitProblem(`the repository of ${wanted} is ${topLevel}, which reaches outside the workspace folders (${roots.join(', ')}); add ${topLevel} itself as a workspace folder`);
  const refuseOutside = (place, what, how) => {
    if (inRoots(place)) return;
    throw new GitProblem(
      `the repository of ${wanted} ${what} ${place}, outside the workspace folders (${roots.join(', ')}): ${how}. The git tools touch no repository outside them; add ${place} as a workspace folder too if you mean it`,
    );
  };
  const realGitDir = await fs.realpath(gitDir);
  refuseOutside(realGitDir, 'keeps its git data (history, index, refs) in', 'its .git file points there');
  const realCommonDir = await fs.realpath(path.resolve(real, commonDir));
  refuseOutside(realCommonDir, 'shares the history and refs of', 'it is a linked worktree of that repository (the commondir file of its git dir)');
  await checkGitData(realGitDir, realCommonDir, refuseOutside);
  return topLevel;
}
