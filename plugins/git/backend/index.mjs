// The Git backend: runs in its own Node process for the Git page, with the
// same git code as the app's MCP server (../lib/git.mjs). The page works on
// the repositories the user added on it (kept in <dataDir>/repos.json); a
// call naming any other folder is refused, as the server refuses one outside
// the conversation's workspace folders. The added repositories are the
// page's roots: a linked worktree opens once its main repository is added
// too (a repository's git data must lie inside the roots, ../lib/resolveRepo.mjs).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as git from '../lib/git.mjs';

const MAX_REPOS = 64;

async function readRepos(dataDir) {
  try {
    const repos = JSON.parse(await fs.readFile(path.join(dataDir, 'repos.json'), 'utf8'));
    return Array.isArray(repos) ? repos.filter((r) => typeof r === 'string') : [];
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
}

async function writeRepos(dataDir, repos) {
  const file = path.join(dataDir, 'repos.json');
  await fs.writeFile(`${file}.tmp`, JSON.stringify(repos, null, 2));
  await fs.rename(`${file}.tmp`, file);
}

export function createUiAppsBackend(ctx) {
  /** The repository a page call names, only if the user added it. */
  const repoOf = async (params) => {
    const repos = await readRepos(ctx.dataDir);
    if (!repos.includes(params?.repo)) throw new Error(`${params?.repo} is not one of the repositories added on this page; add it first`);
    return git.resolveRepo(params.repo, repos);
  };
  const on = (run) => async (params) => run(await repoOf(params), params ?? {});
  return {
    methods: {
      repos: async () => ({ repos: await readRepos(ctx.dataDir) }),
      /** Adds a folder the user typed: it must be an absolute path to a repository's top folder. */
      async addRepo(params) {
        const wanted = params?.path;
        if (typeof wanted !== 'string' || !path.isAbsolute(wanted)) throw new Error('give the absolute path of the repository folder');
        const repos = await readRepos(ctx.dataDir);
        const repo = await git.resolveRepo(wanted, [...repos, wanted]);
        if (!repos.includes(repo)) {
          if (repos.length >= MAX_REPOS) throw new Error(`at most ${MAX_REPOS} repositories; remove one first`);
          repos.push(repo);
          await writeRepos(ctx.dataDir, repos);
        }
        return { repo, repos };
      },
      async removeRepo(params) {
        const repos = (await readRepos(ctx.dataDir)).filter((r) => r !== params?.repo);
        await writeRepos(ctx.dataDir, repos);
        return { repos };
      },
      status: on((repo) => git.status(repo)),
      diff: on((repo, p) => git.diff(repo, { staged: p.staged === true, paths: p.paths })),
      log: on((repo, p) => git.log(repo, { maxCount: p.maxCount ?? 100, graph: true, all: p.all === true })),
      branches: on((repo) => git.branches(repo)),
      stage: on((repo, p) => git.stage(repo, p.paths)),
      unstage: on((repo, p) => git.unstage(repo, p.paths)),
      commit: on((repo, p) => git.commit(repo, p.message)),
      checkout: on((repo, p) => git.checkout(repo, { branch: p.branch, create: p.create === true })),
    },
  };
}
