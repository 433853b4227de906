import type { EnvValue, ServerDefinition } from '../../../shared/mcp.js';
import type { McpTestResult } from '../../../shared/mcpAdmin.js';
import type { TrialStart } from '../mcpRuntime.js';

/** What to do about each coded failure, for a person. */
function hintFor(code: string, reason: string | undefined, definition: ServerDefinition): string | undefined {
  switch (reason) {
    case 'ENV_MISSING':
      return "set the variable in the environment ChatOS is started from, or keep the value in the key store instead (a stored value in the server's settings)";
    case 'SECRET_MISSING':
      return 'edit the server and enter the stored value again';
    case 'SPAWN_FAILED': {
      const command = definition.transport.kind === 'stdio' ? definition.transport.command : '';
      return `check that "${command}" is installed and on the PATH ChatOS runs with (or give its full path), and that the working folder exists`;
    }
    case 'HTTP_CONNECT_FAILED':
      return 'check the url, that the server is running and that it speaks MCP over streamable HTTP (often at /mcp)';
    case 'URL_REFUSED':
      return "use an http(s) url of the server's streamable HTTP endpoint";
    case 'HANDSHAKE_FAILED':
      return 'the program started but did not answer as an MCP server on stdio: check its arguments and the output below';
  }
  if (code === 'SERVER_NOT_RUNNABLE') return 'trust the plugin on the Apps page (or chatos trust PLUGIN) first';
  if (code === 'CONNECT_TIMEOUT') return 'the server did not answer within its connect timeout: check that it speaks MCP, or raise its timeout';
  if (code === 'TEST_TIMEOUT') return 'a server started with npx or uvx may still be downloading: try again, or give the test more time';
  return undefined;
}

/** A trial start as "test connection" reports it. */
export function testResultOf(trial: TrialStart, definition: ServerDefinition): McpTestResult {
  if (trial.ok) {
    return {
      ok: true,
      ms: trial.ms,
      tools: trial.tools.map((tool) => ({ name: tool.name, description: tool.description ?? '' })),
      stderr: trial.stderr,
      ...(trial.protocol ? { protocol: trial.protocol } : {}),
    };
  }
  // The runtime's own fix (a command not on the PATH it searched, a server that exits at start) says it best.
  const hint = trial.fix ?? hintFor(trial.code, trial.reason, definition);
  return { ok: false, code: trial.code, ...(trial.reason ? { reason: trial.reason } : {}), message: trial.message, ...(hint ? { hint } : {}), ms: trial.ms, stderr: trial.stderr };
}

/** A definition with its not-yet-stored values filled in, for testing a form before it is saved. Never kept. */
export function withPendingValues(definition: ServerDefinition, pending: ReadonlyMap<string, string>): ServerDefinition {
  if (pending.size === 0 || definition.transport.kind === 'in-process') return definition;
  const fill = (values: Record<string, EnvValue>) => {
    const out = Object.create(null) as Record<string, EnvValue>;
    for (const [key, value] of Object.entries(values)) {
      const replaced = typeof value !== 'string' && 'secret' in value && pending.has(value.secret) ? pending.get(value.secret)! : value;
      Object.defineProperty(out, key, { value: replaced, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  const transport = definition.transport.kind === 'stdio' ? { ...definition.transport, env: fill(definition.transport.env) } : { ...definition.transport, headers: fill(definition.transport.headers) };
  return { ...definition, transport };
}
