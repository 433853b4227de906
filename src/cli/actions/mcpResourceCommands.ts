import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { messageOf } from '../../core/facades/errors.js';
import type { ResourceContent, ResourceListing, ResourceRead } from '../../shared/resources.js';
import { globalOptions } from '../globalOptions.js';
import { expandTemplate } from '../../shared/uriTemplate.js';
import { printJson, UsageError, UserError, type CliContext, type CliIo } from '../output.js';
import { pairsOf } from '../pairOption.js';

import { asServerCaller, base64Bytes, bytesText, serverStep } from './mcpCaller.js';
import type { CallerOptions } from './tools.js';

/**
 * `chatos mcp resources` and `chatos mcp read`: a server's resources through
 * the host's one checked path (host.tools.resources, as the resource browser
 * uses it): the caller's access checked on each request, every read audited
 * and bounded (docs/using/resources.md#size). Binary content goes to a file,
 * never to the terminal.
 */

/** Rows as columns, each padded to its widest cell (the last one left as it is). */
function printTable(io: CliIo, rows: string[][]): void {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  for (const row of rows) io.out(`  ${row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  ')}`.trimEnd());
}

/** The uri to read: a template's {…} parts filled from --fill (docs/using/resources.md#templates), checked as the resource browser fills them. */
function filledUri(given: string, fills: readonly string[]): string {
  const values = pairsOf(fills, '--fill');
  if (!fills.length && !given.includes('{')) return given;
  if (!given.includes('{')) throw new UsageError(`--fill is for a template uri, and ${given} has no {…} part`);
  const filled = expandTemplate(given, values);
  if (!filled.ok) throw new UsageError(`cannot fill ${given}: ${filled.reason} (give each part as --fill NAME=VALUE)`);
  return filled.uri;
}

function printListing(io: CliIo, listing: ResourceListing, flags: string): void {
  const { serverId, resources, templates } = listing;
  if (!resources.length && !templates.length) {
    io.out(`${serverId} lists no resources`);
    return;
  }
  io.out(`${resources.length} resource(s) of ${serverId}:`);
  if (resources.length) printTable(io, [['URI', 'NAME', 'MIME TYPE', 'SIZE'], ...resources.map((r) => [r.uri, r.name, r.mimeType ?? '', r.size === undefined ? '' : bytesText(r.size)])]);
  if (templates.length) {
    io.out(`${templates.length} template(s) (read one with a value for each {…} part: --fill NAME=VALUE):`);
    printTable(io, [['URI TEMPLATE', 'NAME'], ...templates.map((t) => [t.uriTemplate, t.name])]);
  }
  io.out(`read one: chatos mcp read ${serverId} URI ${flags}`);
}

/** What a read's bounds left out, said on stderr (nothing is dropped silently). */
function cutNote(read: ResourceRead): string | undefined {
  if (!read.cut) return undefined;
  const { totalChars, keptChars, droppedBlobs } = read.cut;
  const parts = [
    totalChars > keptChars ? `${keptChars.toLocaleString('en')} of its ${totalChars.toLocaleString('en')} characters are kept` : '',
    droppedBlobs ? `${droppedBlobs} binary item(s) were left out` : '',
  ];
  return `note: the read was over the host's bounds (the server's maxResultChars; docs/using/resources.md#size): ${parts.filter(Boolean).join('; ')}`;
}

const bytesOf = (item: ResourceContent) => ('blob' in item ? Buffer.from(item.blob, 'base64') : Buffer.from(item.text, 'utf8'));

/** Where the n-th item (from 0) of a read goes: FILE for the first, FILE-2.ext, FILE-3.ext… for the others. */
function fileFor(out: string, n: number): string {
  if (n === 0) return out;
  const ext = path.extname(out);
  return `${out.slice(0, out.length - ext.length)}-${n + 1}${ext}`;
}

/** Writes a new file: an existing one (a file, a link, a FIFO) is never written through or over. */
function writeNewFile(file: string, bytes: Buffer): void {
  try {
    fs.writeFileSync(file, bytes, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new UserError(`${file} already exists; nothing was written to it`, 'give --out a file that does not exist yet (or remove that one)');
    throw new UserError(`cannot write ${file}: ${messageOf(error)}`, 'give --out a file in a folder you can write');
  }
}

export async function resources(cli: CliContext, serverId: string, opts: CallerOptions, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await asServerCaller(command, io, serverId, opts, async (host, { caller, flags }) => {
    const listing = await serverStep(
      () => host.tools.resources.list(caller, serverId),
      (message) => new UserError(`server "${serverId}" did not list its resources: ${message}`),
    );
    if (options.json) printJson(io, listing);
    else printListing(io, listing, flags);
    if (listing.truncated) io.err(`note: ${serverId} listed more resources than the host keeps; the rest are left out`);
  });
  cli.exitCode = 0;
}

export async function read(cli: CliContext, serverId: string, given: string, opts: CallerOptions & { out?: string; fill: string[] }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const uri = filledUri(given, opts.fill);
  const { read, flags } = await asServerCaller(command, io, serverId, opts, async (host, { caller, flags }) => {
    const read = await serverStep(
      () => host.tools.resources.read(caller, serverId, uri),
      (message) => new UserError(`server "${serverId}" did not read ${uri}: ${message}`, `see what it offers: chatos mcp resources ${serverId} ${flags}`),
    );
    return { read, flags };
  });
  const note = cutNote(read);
  if (opts.out !== undefined) {
    const files = read.contents.map((item, n) => {
      const bytes = bytesOf(item);
      const file = fileFor(opts.out!, n);
      writeNewFile(file, bytes);
      return { file, uri: item.uri, ...(item.mimeType ? { mimeType: item.mimeType } : {}), bytes: bytes.length };
    });
    if (options.json) printJson(io, { serverId, uri, files, ...(read.cut ? { cut: read.cut } : {}) });
    else if (!files.length) io.out(`${uri} has no contents; nothing was written`);
    else for (const f of files) io.out(`wrote ${bytesText(f.bytes)}${f.mimeType ? ` (${f.mimeType})` : ''} of ${f.uri} to ${f.file}`);
  } else if (options.json) {
    // JSON carries a blob as base64 text: nothing in it can act on a terminal.
    printJson(io, read);
  } else {
    const binary = read.contents.find((item) => 'blob' in item);
    if (binary && 'blob' in binary)
      throw new UserError(
        `${binary.uri} is binary (${binary.mimeType ?? 'no mimeType'}, ${bytesText(base64Bytes(binary.blob))}); binary content is not printed`,
        `write it to a file: chatos mcp read ${serverId} ${uri} --out FILE ${flags}`,
      );
    for (const item of read.contents) if ('text' in item) io.out(item.text);
  }
  if (note) io.err(note);
  cli.exitCode = 0;
}
