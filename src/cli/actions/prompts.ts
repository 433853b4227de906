import type { Command } from 'commander';
import { readProblem, readRegularText } from '../../core/facades/userInput.js';
import { HostPromptError } from '../../core/facades/errors.js';
import { commit, globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, UsageError, UserError, type CliContext } from '../output.js';

/** `chatos prompts …`: the host's own prompts, through the same core as the Prompts page (host.registry.prompts). */

function promptStep<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof HostPromptError && error.code === 'PROMPT_INVALID') throw new UsageError(error.message);
    if (error instanceof HostPromptError) throw new UserError(error.message, error.hint);
    throw error;
  }
}

function textOf(inline: string | undefined, file: string | undefined, option: string): string | undefined {
  if (inline !== undefined && file !== undefined) throw new UsageError(`give --${option} or --${option}-file, not both`);
  if (file === undefined) return inline;
  const read = readRegularText(file, { maxBytes: 200_000 });
  if (!read.ok) {
    const problem = readProblem(read, file);
    throw new UserError(`cannot read ${file}: ${problem.message}`, problem.hint);
  }
  return read.text;
}

export async function list(cli: CliContext, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withReadOnlyHost(options, (host) => {
    const list = host.registry.prompts.list();
    if (options.json) printJson(io, { prompts: list });
    else if (!list.length) io.out('no prompts yet; add one: chatos prompts add NAME --zh TEXT --en TEXT');
    else
      for (const p of list)
        io.out(
          `  ${p.name}${p.title ? `  ${p.title}` : ''}  [${[p.zh !== undefined ? 'zh' : '', p.en !== undefined ? 'en' : ''].filter(Boolean).join(', ')}]  ${p.ids.join(', ')}${p.grantedTo.length ? `  granted to ${p.grantedTo.join(', ')}` : ''}`,
        );
  });
  cli.exitCode = 0;
}

export async function add(cli: CliContext, name: string, opts: { title?: string; zh?: string; zhFile?: string; en?: string; enFile?: string; replace?: boolean }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const zh = textOf(opts.zh, opts.zhFile, 'zh');
  const en = textOf(opts.en, opts.enFile, 'en');
  const prompt = await withStartedHost(options, async (host) => {
    const saved = promptStep(() =>
      host.registry.prompts.save({ name, ...(opts.title ? { title: opts.title } : {}), ...(zh !== undefined ? { zh } : {}), ...(en !== undefined ? { en } : {}) }, { create: opts.replace !== true }),
    );
    await commit(host);
    return saved;
  });
  if (options.json) printJson(io, { prompt });
  else io.out(`saved prompt ${prompt.name}: ${prompt.ids.join(', ')} (grant it to an app: chatos grant APP ${prompt.ids[0]})`);
  cli.exitCode = 0;
}

export async function remove(cli: CliContext, name: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const result = await withStartedHost(options, async (host) => {
    const removed = promptStep(() => host.registry.prompts.remove(name));
    await commit(host);
    return removed;
  });
  if (options.json) printJson(io, result);
  else io.out(`removed prompt ${name}${result.revokedGrants ? ` and ${result.revokedGrants} grant(s) on it` : ''}`);
  cli.exitCode = 0;
}
