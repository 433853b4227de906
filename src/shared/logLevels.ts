// A plain list, without zod: `chatos mcp log-level --help` names the levels without loading it.

/** MCP's log levels (`logging/setLevel`, `notifications/message`), least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
