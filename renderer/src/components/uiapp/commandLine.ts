/**
 * An argv as one line a person can read and paste: arguments with spaces,
 * quotes or nothing in them are double-quoted. Servers are spawned from the
 * argv directly (never through a shell); this is only for showing it.
 */
export function formatCommandLine(argv: readonly string[]): string {
  return argv.map(quoteArgument).join(' ');
}

function quoteArgument(arg: string): string {
  if (arg !== '' && !/[\s"'\\$`]/.test(arg)) return arg;
  return `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
}
