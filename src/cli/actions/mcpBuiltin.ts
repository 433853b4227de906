import type { Command } from 'commander';
import { McpAdminError } from '../../core/facades/errors.js';
import type { BuiltinToolView } from '../../shared/builtinTools.js';
import { commit, globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, UserError, type CliContext, type CliIo } from '../output.js';

/**
 * `chatos mcp builtin list|on|off NAME`: the built-in tools (time, fetch,
 * calculator) switched on and off from a terminal, through the same
 * operation as the Built-in tab (host.mcp.builtins), so the switch is
 * mcp.yaml's `builtins:` block either way.
 */

function printBuiltin(io: CliIo, view: BuiltinToolView): void {
  const privateNote = view.allowPrivateAddresses === undefined ? '' : view.allowPrivateAddresses ? ', private addresses allowed' : ', private addresses refused';
  io.out(`  ${view.name.padEnd(10)} ${view.enabled ? 'on ' : 'off'}  ${view.serverId}${privateNote}: ${view.description.en}`);
  io.out(`      tools: ${view.tools.join(', ')}`);
  if (view.blockedBy) io.out(`      not served: ${view.blockedBy}`);
}

async function setBuiltin(command: Command, name: string, change: { enabled?: boolean; allowPrivateAddresses?: boolean }): Promise<BuiltinToolView> {
  return withStartedHost(globalOptions(command), async (host) => {
    try {
      const view = await host.mcp.builtins.set(name, change);
      await commit(host);
      return view;
    } catch (error) {
      if (error instanceof McpAdminError) throw new UserError(error.message, error.hint);
      throw error;
    }
  });
}

export async function list(cli: CliContext, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  return withReadOnlyHost(options, (host) => {
    const builtins = host.mcp.builtins.list();
    if (options.json) printJson(io, { builtins });
    else for (const view of builtins) printBuiltin(io, view);
    cli.exitCode = 0;
  });
}

export async function on(cli: CliContext, name: string, opts: { allowPrivateAddresses?: boolean; refusePrivateAddresses?: boolean }, command: Command): Promise<void> {
  const { io } = cli;
  if (opts.allowPrivateAddresses && opts.refusePrivateAddresses) throw new UserError('give --allow-private-addresses or --refuse-private-addresses, not both');
  const allowPrivateAddresses = opts.allowPrivateAddresses ? true : opts.refusePrivateAddresses ? false : undefined;
  const view = await setBuiltin(command, name, { enabled: true, ...(allowPrivateAddresses === undefined ? {} : { allowPrivateAddresses }) });
  if (globalOptions(command).json) printJson(io, { builtin: view });
  else io.out(`${view.name} is on (${view.serverId}); pick it for an agent to offer its tools: ${view.tools.join(', ')}`);
  cli.exitCode = 0;
}

export async function off(cli: CliContext, name: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const view = await setBuiltin(command, name, { enabled: false });
  if (globalOptions(command).json) printJson(io, { builtin: view });
  else io.out(`${view.name} is off`);
  cli.exitCode = 0;
}
