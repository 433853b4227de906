// Which repository a call may work on: a folder inside the roots, whose
// repository's top folder lies inside them too.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { git, GitProblem } from './invoke.mjs';

export const inside = (folder, root) => {
  const relative = path.relative(root, folder);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/**
 * The repository a call names, checked against the folders it may work in
 * (an agent's workspace roots; the folders the user added on the page). A
 * relative path is taken from the only root; links are resolved before the
 * check, and the repository's top folder must lie inside a root too (a root
 * that is a subfolder of a repository does not open the whole repository).
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
  let real;
  try {
    real = await fs.realpath(wanted);
  } catch {
    throw new GitProblem(`${wanted} does not exist; name a folder inside the workspace folders (${roots.join(', ')})`);
  }
  if (!realRoots.some((root) => inside(real, root)))
    throw new GitProblem(`${wanted} is outside the workspace folders (${roots.join(', ')}); the git tools work only inside them: add the folder to the agent's Workspace folders if you mean it`);
  const stat = await fs.stat(real);
  if (!stat.isDirectory()) throw new GitProblem(`${wanted} is not a folder; name the repository's folder`);
  const top = await git(real, ['rev-parse', '--show-toplevel'], { allowFailure: true });
  if (top.code !== 0) throw new GitProblem(`${wanted} is not in a git repository; run git init there first, or name another folder`);
  const topLevel = await fs.realpath(top.text.trim());
  if (!realRoots.some((root) => inside(topLevel, root)))
    throw new GitProblem(`the repository of ${wanted} is ${topLevel}, which reaches outside the workspace folders (${roots.join(', ')}); add ${topLevel} itself as a workspace folder`);
  return topLevel;
}
