import { HOST_APP_ID } from '../dataHome.js';
import type { LeaseRelease } from '../mcp/connection/connectionManager.js';
import type { BackendStop } from '../uiApps/pluginBackends.js';
import type { AuditDraft } from './auditLine.js';

/**
 * A released lease as an audit record, like a call: a caller's mcp_release
 * under its own app and flow (outcome `ok` when it held nothing to release),
 * a release the host made itself (idle, a conversation ended, a page or
 * socket gone) under `chatos` with no tool. `reason` says which.
 */
export function releaseDraft(release: LeaseRelease): AuditDraft {
  const { by } = release;
  return {
    at: release.at,
    agentId: by?.agentId,
    conversationId: release.conversationId,
    appId: by?.appId ?? HOST_APP_ID,
    flow: by?.flow ?? null,
    serverId: release.serverId,
    tool: by ? 'mcp_release' : null,
    permission: by ? 'write' : null,
    decision: 'auto',
    durationMs: release.durationMs,
    outcome: release.held ? 'released' : 'ok',
    reason: release.reason,
  };
}

/** A plugin backend the host stopped (its plugin may no longer run) as an audit record: no server, no tool, the plugin named. */
export function backendStopDraft(stop: BackendStop): AuditDraft {
  return {
    at: stop.at,
    conversationId: null,
    appId: HOST_APP_ID,
    flow: null,
    serverId: null,
    tool: null,
    permission: null,
    decision: 'auto',
    durationMs: stop.durationMs,
    outcome: 'released',
    pluginId: stop.pluginId,
    reason: stop.reason,
  };
}
