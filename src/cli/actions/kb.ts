import type { Command } from 'commander';
import { KnowledgeError } from '../../core/facades/errors.js';
import type { Host } from '../../core/host.js';
import type { KnowledgeBase } from '../../shared/knowledge.js';
import { confirmStep } from '../confirmStep.js';
import { globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, UsageError, UserError, type CliContext } from '../output.js';
import { readSecretFromStdin } from '../readSecret.js';

async function kbStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof KnowledgeError && error.code === 'KB_INVALID') throw new UsageError(error.message);
    if (error instanceof KnowledgeError) throw new UserError(`${error.message} [${error.code}]`, error.hint);
    throw error;
  }
}

/** `--model none` is search by words only. */
const modelOption = (value: string | undefined) => (value === undefined ? {} : { embeddingModel: value === 'none' ? null : value });

function line(base: KnowledgeBase): string {
  const model = base.embeddingModel ? `model ${base.embeddingModel}${base.counts.chunks && base.embeddedWith?.model !== base.embeddingModel ? ' (re-embed needed)' : ''}` : 'words only';
  const engine = base.engine ? `  on ${base.engine.url} (${base.engine.collection})` : '';
  return `  ${base.id}  ${base.name}  ${base.counts.files} file(s), ${base.counts.chunks} chunk(s)  ${model}${engine}${base.description ? `  ${base.description}` : ''}`;
}

/**
 * Ctrl-C during a long add cancels it: the add stops at its next step and
 * the base is left as it was (KB_CANCELLED), rather than the process dying
 * wherever it is. A second Ctrl-C ends the process as usual.
 */
async function cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once('SIGINT', interrupt);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', interrupt);
  }
}

const formatSeconds = (ms: number) => (ms < 60_000 ? `${Math.max(1, Math.round(ms / 1000))} s` : `${Math.round(ms / 60_000)} min`);

/** Progress on stderr, one line per phase change and per embedded batch, so stdout stays the result. */
function progressPrinter(cli: CliContext, quiet: boolean) {
  return (p: { phase: string; file?: string; done: number; total: number; etaMs?: number }) => {
    if (quiet) return;
    const left = p.etaMs !== undefined && p.done < p.total ? `, about ${formatSeconds(p.etaMs)} left` : '';
    if (p.phase === 'embedding') cli.io.err(`  ${p.file ?? ''} embedding ${p.done}/${p.total}${left}`);
    else if (p.phase === 'reading') cli.io.err(`  ${p.file ?? ''} reading`);
  };
}

type SettingsFlags = { description?: string; model?: string; chunkSize?: number; chunkOverlap?: number };
const settingsOf = (opts: SettingsFlags) => ({
  ...(opts.description !== undefined ? { description: opts.description } : {}),
  ...modelOption(opts.model),
  ...(opts.chunkSize !== undefined ? { chunkSize: opts.chunkSize } : {}),
  ...(opts.chunkOverlap !== undefined ? { chunkOverlap: opts.chunkOverlap } : {}),
});

const read = <T>(command: Command, use: (host: Host) => Promise<T>) => withReadOnlyHost(globalOptions(command), (host) => kbStep(() => use(host)));
const write = <T>(command: Command, use: (host: Host) => Promise<T>) => withStartedHost(globalOptions(command), (host) => kbStep(() => use(host)));

export async function list(cli: CliContext, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const bases = await read(command, (host) => host.knowledge.list());
  if (globalOptions(command).json) printJson(io, { knowledgeBases: bases });
  else if (!bases.length) io.out('no knowledge bases yet; create one: chatos kb create NAME');
  else for (const base of bases) io.out(line(base));
  cli.exitCode = 0;
}

type EngineFlags = { engine?: string; url?: string; collection?: string; passwordStdin?: boolean };

/** `--engine postgres --url … [--collection …] [--password-stdin]`: the password is read here (never an argument) and handed to the core's key store. */
async function engineOf(cli: CliContext, opts: EngineFlags): Promise<{ engine?: { kind: 'postgres'; url: string; collection?: string; password?: string } }> {
  const engine = opts.engine ?? 'embedded';
  if (engine === 'embedded') {
    if (opts.url !== undefined || opts.collection !== undefined || opts.passwordStdin) throw new UsageError('--url, --collection and --password-stdin go with --engine postgres');
    return {};
  }
  if (engine !== 'postgres') throw new UsageError(`--engine must be embedded or postgres, not "${engine}"`);
  if (!opts.url) throw new UsageError('--engine postgres needs --url postgres://user@host:5432/database');
  const password = opts.passwordStdin ? await readSecretFromStdin('PostgreSQL password (not shown): ', cli.io.stdin, process.stderr, '--password-stdin') : undefined;
  return { engine: { kind: 'postgres', url: opts.url, ...(opts.collection !== undefined ? { collection: opts.collection } : {}), ...(password !== undefined ? { password } : {}) } };
}

export async function create(cli: CliContext, name: string, opts: SettingsFlags & EngineFlags & { id?: string }, command: Command): Promise<void> {
  const { io } = cli;
  const engine = await engineOf(cli, opts);
  const base = await write(command, (host) => host.knowledge.create({ name, ...(opts.id ? { id: opts.id } : {}), ...settingsOf(opts), ...engine }));
  const where = base.engine ? `, on ${base.engine.url} as collection ${base.engine.collection}${base.counts.chunks ? ` holding ${base.counts.chunks} chunk(s) already` : ''}` : '';
  if (globalOptions(command).json) printJson(io, { knowledgeBase: base });
  else io.out(`created knowledge base ${base.id} (${base.embeddingModel ? `embedding with ${base.embeddingModel}` : 'words only'}${where}); add files: chatos kb add ${base.id} FILE…`);
  cli.exitCode = 0;
}

export async function update(cli: CliContext, id: string, opts: SettingsFlags & { name?: string }, command: Command): Promise<void> {
  const { io } = cli;
  const json = globalOptions(command).json === true;
  const base = await write(command, (host) => host.knowledge.update(id, { ...(opts.name ? { name: opts.name } : {}), ...settingsOf(opts) }, { onProgress: progressPrinter(cli, json) }));
  if (json) printJson(io, { knowledgeBase: base });
  else io.out(`updated knowledge base ${base.id}`);
  cli.exitCode = 0;
}

export async function add(cli: CliContext, id: string, files: string[], _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const json = globalOptions(command).json === true;
  // One change for all the files: the base is written once, not once per file.
  const added = await write(command, (host) => cancellable((signal) => host.knowledge.addFiles(id, files, { signal, onProgress: progressPrinter(cli, json) })));
  if (json) printJson(io, { knowledgeBaseId: id, added });
  else for (const a of added) io.out(`added ${a.file}: ${a.chunks} chunk(s)${a.embedded ? ', embedded' : ''}${a.replaced ? ` (replaced ${a.replaced})` : ''}`);
  for (const note of added.flatMap((a) => a.notes ?? [])) io.err(`note: ${note}`);
  cli.exitCode = 0;
}

export async function search(cli: CliContext, id: string, query: string, opts: { limit?: number }, command: Command): Promise<void> {
  const { io } = cli;
  const result = await read(command, (host) => host.knowledge.search(id, query, opts.limit ? { limit: opts.limit } : {}));
  if (globalOptions(command).json) printJson(io, { knowledgeBaseId: id, ...result });
  else {
    if (result.note) io.err(`note: ${result.note}`);
    if (!result.hits.length) io.out('no chunk matches');
    for (const [i, hit] of result.hits.entries()) {
      io.out(`${i + 1}. ${hit.file} #${hit.position}${hit.heading ? ` (${hit.heading})` : ''}  score ${hit.score.toFixed(3)}  [${hit.id}]`);
      io.out(`   ${hit.text.replace(/\s+/g, ' ').slice(0, 240)}`);
    }
  }
  cli.exitCode = 0;
}

export async function docs(cli: CliContext, id: string, opts: { file?: string; offset?: number; limit?: number }, command: Command): Promise<void> {
  const { io } = cli;
  const page = await read(command, (host) => host.knowledge.listDocuments(id, opts));
  if (globalOptions(command).json) printJson(io, { knowledgeBaseId: id, ...page });
  else {
    for (const f of page.files) io.out(`  ${f.file}  ${f.chunks} chunk(s)`);
    for (const c of page.chunks) io.out(`    ${c.id}  ${c.file} #${c.position}  ${c.text.replace(/\s+/g, ' ').slice(0, 80)}`);
    io.out(`${page.chunks.length} of ${page.total} chunk(s) from ${page.offset}`);
  }
  cli.exitCode = 0;
}

export async function remove(cli: CliContext, id: string, opts: { file?: string; chunk?: string }, command: Command): Promise<void> {
  const { io } = cli;
  if ((opts.file === undefined) === (opts.chunk === undefined)) throw new UsageError('give exactly one of --file or --chunk');
  const removed = await write(command, async (host) => (opts.file !== undefined ? host.knowledge.deleteFile(id, opts.file) : (await host.knowledge.deleteChunk(id, opts.chunk!), 1)));
  if (globalOptions(command).json) printJson(io, { knowledgeBaseId: id, removed });
  else io.out(`removed ${removed} chunk(s)`);
  cli.exitCode = 0;
}

export async function reembed(cli: CliContext, id: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const json = globalOptions(command).json === true;
  const base = await write(command, (host) => host.knowledge.reembed(id, { onProgress: progressPrinter(cli, json) }));
  if (json) printJson(io, { knowledgeBase: base });
  else io.out(`re-embedded ${base.counts.chunks} chunk(s) of ${base.id}`);
  cli.exitCode = 0;
}

export async function deleteBase(cli: CliContext, id: string, opts: { yes?: boolean }, command: Command): Promise<void> {
  const { io } = cli;
  const base = await write(command, async (host) => {
    // Asked like uninstall: what goes is said first, and nothing is deleted without a yes.
    if (!opts.yes) {
      const found = await host.knowledge.get(id);
      if (found.engine) io.err(`deleting knowledge base ${found.id} (${JSON.stringify(found.name)}) forgets it here; its collection ${found.engine.collection} stays on ${found.engine.url}`);
      else io.err(`deleting knowledge base ${found.id} (${JSON.stringify(found.name)}) deletes its ${found.counts.files} file(s) and ${found.counts.chunks} chunk(s)`);
      const answer = await confirmStep(io, `delete ${found.id}?`, false);
      if (answer === 'no-terminal')
        throw new UserError(
          `${found.id} was not deleted: deleting a knowledge base asks first, and there is no terminal to ask on`,
          `run "chatos kb delete ${found.id} --yes" to delete it with its documents`,
        );
      if (!answer) throw new UserError(`${found.id} was not deleted`);
    }
    return host.knowledge.delete(id);
  });
  if (globalOptions(command).json) printJson(io, { deleted: base.id });
  else io.out(`deleted knowledge base ${base.id} (${base.counts.chunks} chunk(s))`);
  cli.exitCode = 0;
}
