import type { Command } from 'commander';
import { CatalogError, McpAdminError, SecretError } from '../../core/facades/errors.js';
import type { CatalogEntryView, CatalogOptionView } from '../../shared/mcpCatalog.js';
import { commit, globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, printProblems, UsageError, UserError, type CliContext, type CliIo } from '../output.js';
import { pairsOf } from '../pairOption.js';
import { readSecretFromStdin } from '../readSecret.js';

/**
 * `chatos catalog …`: an MCP Registry's servers from a terminal, through the
 * same operations as the Catalog page (host.catalog). An entry is data:
 * listing and showing run nothing; `add` writes a server into mcp.yaml
 * through the MCP servers' own add, after which it is a typed server.
 */

async function catalogStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof CatalogError || error instanceof McpAdminError || error instanceof SecretError) {
      const fields = error instanceof McpAdminError && error.fields.length ? `\n    ${error.fields.map((f) => `${f.path}: ${f.message}`).join('\n    ')}` : '';
      throw new UserError(`${error.message}${fields}`, error.hint);
    }
    throw error;
  }
}

function optionLines(option: CatalogOptionView): string[] {
  const head = `  [${option.index}] ${option.label}`;
  if (!option.installable) return [`${head}  (cannot be added: ${option.reason})`, ...(option.hint ? [`      ${option.hint}`] : [])];
  const lines = [head];
  if (option.command) lines.push(`      runs: ${[option.command, ...(option.args ?? [])].join(' ')}`);
  if (option.url) lines.push(`      connects to: ${option.url}`);
  if (option.downloads) lines.push(`      downloads: ${option.downloads}`);
  for (const input of option.inputs) {
    const traits = [
      input.kind,
      input.required ? 'required' : 'optional',
      input.secret ? 'secret, kept in the key store' : '',
      input.default !== undefined ? `default ${JSON.stringify(input.default)}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`      asks ${input.name} (${traits})${input.description ? `: ${input.description}` : ''}${input.note ? `  note: ${input.note}` : ''}`);
  }
  return lines;
}

function printEntry(io: CliIo, entry: CatalogEntryView, detailed: boolean): void {
  io.out(`${entry.name}  ${entry.version}${entry.status && entry.status !== 'active' ? `  (${entry.status})` : ''}${entry.title ? `  ${entry.title}` : ''}`);
  if (entry.description) io.out(`  ${entry.description}`);
  if (detailed) {
    if (entry.repositoryUrl) io.out(`  source: ${entry.repositoryUrl}`);
    if (entry.websiteUrl) io.out(`  website: ${entry.websiteUrl}`);
  }
  if (!entry.options.length) io.out('  (no package or remote to run)');
  for (const option of entry.options) for (const line of detailed ? optionLines(option) : optionLines(option).slice(0, 2)) io.out(line);
}

export async function search(cli: CliContext, words: string[], opts: { cursor?: string; limit?: string; registry?: string }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const limit = opts.limit === undefined ? undefined : Number(opts.limit);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 100)) throw new UsageError('--limit takes a whole number from 1 to 100');
  const query = {
    ...(opts.registry ? { registry: opts.registry } : {}),
    ...(words.length ? { search: words.join(' ') } : {}),
    ...(opts.cursor ? { cursor: opts.cursor } : {}),
    ...(limit ? { limit } : {}),
  };
  const page = await withReadOnlyHost(options, (host) => catalogStep(() => host.catalog.search(query)));
  if (options.json) printJson(io, page);
  else {
    if (page.offline) io.err(`warning: ${page.offline.reason}; showing what it answered at ${page.offline.savedAt}`);
    io.out(`${page.entries.length} server(s) from ${page.registry}${query.search ? ` matching "${query.search}"` : ''}:`);
    for (const entry of page.entries) printEntry(io, entry, false);
    if (page.nextCursor) io.out(`more: chatos catalog search ${words.map((w) => `${w} `).join('')}--cursor ${page.nextCursor}`);
    io.out('details: chatos catalog show NAME · add one: chatos catalog add NAME');
  }
  for (const { name, reason } of page.refused) io.err(`warning: the registry's entry ${name} is not valid server.json and is not shown: ${reason}`);
  cli.exitCode = 0;
}

export async function show(cli: CliContext, name: string, opts: { registry?: string }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const entry = await withReadOnlyHost(options, (host) => catalogStep(() => host.catalog.show(name, opts.registry)));
  if (options.json) printJson(io, { entry });
  else printEntry(io, entry, true);
  cli.exitCode = 0;
}

export async function add(
  cli: CliContext,
  name: string,
  opts: { as?: string; option?: string; set: string[]; secretStdin?: string; registry?: string; yes?: boolean; keepSecrets?: boolean; signIn?: boolean; browser: boolean },
  command: Command,
): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const option = opts.option === undefined ? undefined : Number(opts.option);
  if (option !== undefined && !(Number.isInteger(option) && option >= 0)) throw new UsageError('--option takes a number that chatos catalog show prints');
  // An mcpb entry installs as a plugin, through `chatos install URL`'s own plan, its download held to the entry's SHA-256.
  const chosen = { ...(opts.registry ? { registry: opts.registry } : {}), name, ...(option !== undefined ? { option } : {}) };
  const bundle = await withReadOnlyHost(options, (host) => catalogStep(() => host.catalog.bundle(chosen)));
  if (bundle) {
    if (opts.as) throw new UsageError(`${name} is an MCP bundle: it installs as a plugin named by its manifest, so --as does not apply`);
    const { installBundleCommand } = await import('./bundleInstall.js');
    await installBundleCommand(cli, bundle.url, { yes: opts.yes, config: opts.set, secretStdin: opts.secretStdin, keepSecrets: opts.keepSecrets, sha256: bundle.sha256 }, command);
    return;
  }
  const values = new Map(Object.entries(pairsOf(opts.set, '--set')));
  if (opts.secretStdin) {
    if (values.has(opts.secretStdin)) throw new UsageError(`${opts.secretStdin} is given by --set and --secret-stdin; give it once`);
    values.set(opts.secretStdin, await readSecretFromStdin(`${opts.secretStdin}: `, io.stdin, process.stderr, '--secret-stdin'));
  }
  const request = {
    ...(opts.registry ? { registry: opts.registry } : {}),
    name,
    ...(option !== undefined ? { option } : {}),
    ...(opts.as ? { serverName: opts.as } : {}),
    values: [...values].map(([key, value]) => ({ name: key, value })),
  };
  const server = await withStartedHost(options, async (host) => {
    const added = await catalogStep(() => host.catalog.add(request));
    await commit(host);
    return added;
  });
  if (options.json) printJson(io, { server });
  else io.out(`added ${server.name} to mcp.yaml (registry id ${server.id}) from the MCP registry's ${name}`);
  printProblems(io, server.problems);
  cli.exitCode = 0;
  if (options.json) return;
  // A remote that asked for sign-in when it was added: the sign-in `chatos mcp login` runs, on a terminal or when asked.
  if (server.signIn?.kind === 'needed') {
    io.out(`${server.name} asks you to sign in${server.signIn.scope ? ` (asks for ${server.signIn.scope})` : ''}`);
    if (opts.signIn || io.ask) {
      const { login } = await import('./mcpSignIn.js');
      return login(cli, server.name, { browser: opts.browser }, command);
    }
    io.out(`sign in: chatos mcp login ${server.name}`);
    return;
  }
  io.out(`try it: chatos mcp test ${server.name}`);
}
