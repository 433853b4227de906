/**
 * `cmd://<command> <entry> <args…>` (docs/rules/names-and-exposure.md#derived-names). The url is how a stdio
 * server is shown and stored; the host spawns from the parsed argv and never
 * through a shell, so quoting here only has to round-trip, not be shell-safe.
 */

const needsQuotes = (token: string) => token === '' || /[\s"\\]/.test(token);

function quote(token: string): string {
  return needsQuotes(token) ? JSON.stringify(token) : token;
}

export function formatCmdUrl(command: string, args: readonly string[]): string {
  return `cmd://${[command, ...args].map(quote).join(' ')}`;
}

export interface CommandLine {
  command: string;
  args: string[];
}

/** Inverse of `formatCmdUrl`; also reads unquoted urls written by other hosts. */
export function parseCmdUrl(url: string): CommandLine {
  if (!url.startsWith('cmd://')) throw new Error(`not a cmd:// url: ${url}`);
  const body = url.slice('cmd://'.length);
  const tokens: string[] = [];
  let index = 0;
  while (index < body.length) {
    if (/\s/.test(body[index]!)) {
      index++;
      continue;
    }
    if (body[index] === '"') {
      let end = index + 1;
      while (end < body.length && body[end] !== '"') end += body[end] === '\\' ? 2 : 1;
      if (end >= body.length) throw new Error(`unterminated quote in ${url}`);
      tokens.push(JSON.parse(body.slice(index, end + 1)) as string);
      index = end + 1;
    } else {
      let end = index;
      while (end < body.length && !/\s/.test(body[end]!)) end++;
      tokens.push(body.slice(index, end));
      index = end;
    }
  }
  const [command, ...args] = tokens;
  if (!command) throw new Error(`cmd:// url names no command: ${url}`);
  return { command, args };
}
