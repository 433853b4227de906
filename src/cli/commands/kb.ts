import type { Command } from 'commander';
import { lazyAction } from '../lazyAction.js';
import { UsageError, type CliContext } from '../output.js';

const actions = () => import('../actions/kb.js');

function intOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`"${value}" is not a whole number`);
  return n;
}

function withSettingsFlags(command: Command): Command {
  return command
    .option('--description <text>', 'what the base holds')
    .option('--model <id>', 'embedding model entry (chatos models list), or "none" to search by words only')
    .option('--chunk-size <n>', 'characters per chunk (default 800)', intOption)
    .option('--chunk-overlap <n>', 'characters a chunk repeats of the one before (default 100)', intOption);
}

/** `chatos kb …`: knowledge bases, through the same core as the Knowledge page and the settings tools (host.knowledge). */

export function registerKb(program: Command, cli: CliContext): void {
  const kb = program.command('kb').description('knowledge bases: documents cut into chunks, searched by words and (with an embedding model) by meaning');

  kb.command('list')
    .description('every knowledge base with its counts and model')
    .action(lazyAction(cli, actions, (a) => a.list));

  withSettingsFlags(
    kb
      .command('create')
      .description('create a knowledge base: in the embedded store, or on a shared PostgreSQL with pgvector (--engine postgres --url …)')
      .argument('<name>', 'its name')
      .option('--id <id>', 'its id (default: from the name)')
      .option('--engine <engine>', 'where its chunks live: embedded (default) or postgres')
      .option('--url <url>', 'with --engine postgres: the server, postgres://user@host:5432/database (no password in it)')
      .option('--collection <name>', "with --engine postgres: the tables' name on the server (default: the id); another machine giving the same one shares the base")
      .option('--password-stdin', "with --engine postgres: read the server's password from stdin and keep it in the key store"),
  ).action(lazyAction(cli, actions, (a) => a.create));

  withSettingsFlags(kb.command('update').description('change a knowledge base; a new --model re-embeds every chunk').argument('<kb>', 'its id').option('--name <name>', 'a new name')).action(
    lazyAction(cli, actions, (a) => a.update),
  );

  kb.command('add')
    .description('add files (.txt, .md, .html, .pdf); a file added again replaces its chunks')
    .argument('<kb>', 'the knowledge base id')
    .argument('<files...>', 'files to add')
    .action(lazyAction(cli, actions, (a) => a.add));

  kb.command('search')
    .description('the chunks that best match a query, with score, file and position')
    .argument('<kb>', 'the knowledge base id')
    .argument('<query>', 'what to look for')
    .option('--limit <n>', 'how many chunks (default 5)', intOption)
    .action(lazyAction(cli, actions, (a) => a.search));

  kb.command('docs')
    .description("a knowledge base's files with their chunk counts, and a page of chunks")
    .argument('<kb>', 'the knowledge base id')
    .option('--file <name>', 'only this file')
    .option('--offset <n>', 'chunks to skip', intOption)
    .option('--limit <n>', 'chunks per page (default 50)', intOption)
    .action(lazyAction(cli, actions, (a) => a.docs));

  kb.command('remove')
    .description("remove a file's chunks (--file) or one chunk (--chunk) from a knowledge base")
    .argument('<kb>', 'the knowledge base id')
    .option('--file <name>', 'the file whose chunks go')
    .option('--chunk <id>', 'one chunk (its id as chatos kb docs shows it)')
    .action(lazyAction(cli, actions, (a) => a.remove));

  kb.command('reembed')
    .description("embed every chunk again with the base's model")
    .argument('<kb>', 'the knowledge base id')
    .action(lazyAction(cli, actions, (a) => a.reembed));

  kb.command('delete')
    .description('delete a knowledge base with all its documents (asks first; --yes without a terminal)')
    .argument('<kb>', 'the knowledge base id')
    .option('--yes', 'delete without asking')
    .action(lazyAction(cli, actions, (a) => a.deleteBase));
}
