// The audit's enums as plain lists, without zod: `chatos audit --help` names them without loading it.

/** `refused`: the gateway refused the call before anyone was asked (not granted, wrong flow, not runnable, switched off, unknown tool). */
export const AUDIT_DECISIONS = ['auto', 'approved', 'declined', 'expired', 'withdrawn', 'refused'] as const;
/** `cancelled`: the caller cancelled it while it ran (the server was told to stop). `refused`: it never ran (see `reason`); `released`: a lease ended (mcp_release, idle, conversation ended, page or socket gone, its plugin may no longer run) or the host stopped a plugin's backend. */
export const AUDIT_OUTCOMES = ['ok', 'tool-error', 'failed', 'declined', 'refused', 'released', 'cancelled'] as const;
