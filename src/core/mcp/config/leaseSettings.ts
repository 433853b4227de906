import { z } from 'zod';
import type { Problem } from '../../../shared/problems.js';
import { parseConfigBlock } from './configBlock.js';

/**
 * `leases:` in mcp.yaml: how long a conversation's own instance of a server
 * may sit unused before it is released, and how long the instances of a
 * closed page or a gone WebSocket client are kept in case it comes back.
 */
export const LeaseSettingsSchema = z
  .object({
    /** Minutes; fractions allowed. */
    idleMinutes: z
      .number()
      .positive()
      .max(7 * 24 * 60)
      .optional(),
    /** Seconds; 0 releases at once. */
    releaseGraceSeconds: z
      .number()
      .min(0)
      .max(24 * 60 * 60)
      .optional(),
    /** Minutes a plugin backend may go without a call from its pages before it is stopped; fractions allowed. */
    backendIdleMinutes: z
      .number()
      .positive()
      .max(7 * 24 * 60)
      .optional(),
  })
  .strict();
export type LeaseSettings = z.infer<typeof LeaseSettingsSchema>;

/**
 * The promise of docs/rules/mcp-yaml.md#leases: an instance unused for 10
 * minutes is released. A server process costs tens of MB while it waits,
 * and starting it again costs a second or two.
 */
export const DEFAULT_LEASE_IDLE_MS = 10 * 60_000;
/** A page reloaded or a socket reconnecting within this keeps its instances. */
export const DEFAULT_LEASE_GRACE_MS = 30_000;
/** An open page calls its backend (a canvas page keeps a call waiting for changes); five minutes without one: no page needs it. */
export const DEFAULT_BACKEND_IDLE_MS = 5 * 60_000;

const HINT = 'write e.g. "leases: { idleMinutes: 10, releaseGraceSeconds: 30, backendIdleMinutes: 5 }" (idleMinutes and backendIdleMinutes above 0, releaseGraceSeconds 0 or more)';

/** The block as written (absent: nothing set); a broken block is an error on its path and sets nothing, the servers load as usual. */
export function parseLeaseSettings(raw: unknown, document: unknown, file: string): { settings: LeaseSettings; problems: Problem[] } {
  return parseConfigBlock(LeaseSettingsSchema, 'leases', raw, document, file, 'MCP_LEASES_INVALID', HINT);
}

/** The times in effect: mcp.yaml's, else the host's options, else the defaults. */
export function leaseTimes(settings: LeaseSettings, options: { idleMs?: number; graceMs?: number; backendIdleMs?: number }): { idleMs: number; graceMs: number; backendIdleMs: number } {
  return {
    backendIdleMs: settings.backendIdleMinutes !== undefined ? settings.backendIdleMinutes * 60_000 : (options.backendIdleMs ?? DEFAULT_BACKEND_IDLE_MS),
    idleMs: settings.idleMinutes !== undefined ? settings.idleMinutes * 60_000 : (options.idleMs ?? DEFAULT_LEASE_IDLE_MS),
    graceMs: settings.releaseGraceSeconds !== undefined ? settings.releaseGraceSeconds * 1000 : (options.graceMs ?? DEFAULT_LEASE_GRACE_MS),
  };
}
