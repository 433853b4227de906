import type { Command } from 'commander';
import { readProblem, readRegularText } from '../../core/files/readRegularFile.js';
import { HostPromptError } from '../../core/registry/hostPromptStore.js';
import { commit, globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, UsageError, UserError, type CliContext } from '../output.js';

/** `chatos prompts …`: the host's own prompts, through the same core as the Prompts page (host.hostPrompts). */

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

export function registerPrompts(program: Command, cli: CliContext): void {
  const { io } = cli;
  const prompts = program.command('prompts').description("the host's own prompts (a Chinese and an English text each), registered as chatos::NAME and chatos::NAME__en");

  prompts
    .command('list')
    .description("every prompt of the host, with its texts' ids and the apps granted them")
    .action(async (_opts: unknown, command: Command) => {
      const options = globalOptions(command);
      await withReadOnlyHost(options, (host) => {
        const list = host.hostPrompts.list();
        if (options.json) printJson(io, { prompts: list });
        else if (!list.length) io.out('no prompts yet; add one: chatos prompts add NAME --zh TEXT --en TEXT');
        else
          for (const p of list)
            io.out(
              `  ${p.name}${p.title ? `  ${p.title}` : ''}  [${[p.zh !== undefined ? 'zh' : '', p.en !== undefined ? 'en' : ''].filter(Boolean).join(', ')}]  ${p.ids.join(', ')}${p.grantedTo.length ? `  granted to ${p.grantedTo.join(', ')}` : ''}`,
            );
      });
      cli.exitCode = 0;
    });

  prompts
    .command('add')
    .description('add a prompt, or replace its texts with --replace')
    .argument('<name>', 'its name (letters, digits, ".", "_", "-")')
    .option('--title <title>', 'a title')
    .option('--zh <text>', 'the Chinese text')
    .option('--zh-file <file>', 'the Chinese text, from a file')
    .option('--en <text>', 'the English text')
    .option('--en-file <file>', 'the English text, from a file')
    .option('--replace', 'replace the prompt of that name')
    .action(async (name: string, opts: { title?: string; zh?: string; zhFile?: string; en?: string; enFile?: string; replace?: boolean }, command: Command) => {
      const options = globalOptions(command);
      const zh = textOf(opts.zh, opts.zhFile, 'zh');
      const en = textOf(opts.en, opts.enFile, 'en');
      const prompt = await withStartedHost(options, async (host) => {
        const saved = promptStep(() =>
          host.hostPrompts.save({ name, ...(opts.title ? { title: opts.title } : {}), ...(zh !== undefined ? { zh } : {}), ...(en !== undefined ? { en } : {}) }, { create: opts.replace !== true }),
        );
        await commit(host);
        return saved;
      });
      if (options.json) printJson(io, { prompt });
      else io.out(`saved prompt ${prompt.name}: ${prompt.ids.join(', ')} (grant it to an app: chatos grant APP ${prompt.ids[0]})`);
      cli.exitCode = 0;
    });

  prompts
    .command('remove')
    .description("remove a prompt, its texts' registrations and the grants on them")
    .argument('<name>', "the prompt's name")
    .action(async (name: string, _opts: unknown, command: Command) => {
      const options = globalOptions(command);
      const result = await withStartedHost(options, async (host) => {
        const removed = promptStep(() => host.hostPrompts.remove(name));
        await commit(host);
        return removed;
      });
      if (options.json) printJson(io, result);
      else io.out(`removed prompt ${name}${result.revokedGrants ? ` and ${result.revokedGrants} grant(s) on it` : ''}`);
      cli.exitCode = 0;
    });
}
