import type { CliContext } from './output.js';

/**
 * A command's action, loaded when the command runs. `chatos` starts by
 * defining its commands, which needs commander and src/cli/commands/ only;
 * what an action runs (the host, its schemas, the Node built-ins it uses) is
 * most of the CLI's code, and only the command given loads it: `chatos
 * --help` or a usage error loads none (docs/contributing/benchmarks.md, cli start).
 */
export function lazyAction<M>(cli: CliContext, load: () => Promise<M>, pick: (actions: M) => (cli: CliContext, ...args: never[]) => unknown): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const action = pick(await load()) as (cli: CliContext, ...args: unknown[]) => unknown;
    await action(cli, ...args);
  };
}
