import type { Problem } from '../../shared/problems.js';
import type { RegistrySource } from '../../shared/registry.js';
import type { PruneResult } from '../operations/registryPrune.js';
import type { RunGateRefusal, RunPart } from '../policy/runGate.js';
import type { HostPromptStore } from '../registry/hostPromptStore.js';
import type { RegistryCenter } from '../registry/registryCenter.js';

export type { PruneResult } from '../operations/registryPrune.js';
export type { GrantKind } from '../registry/registryCenter.js';

/**
 * The registry center (docs/rules/registry.md): apps, servers and prompts with their
 * grants, read and granted; the host's own prompts; the registry's problems.
 * Registrations themselves come from the plugins, provider DBs and defaults
 * (the registry sync), never from a face.
 */
export interface RegistryFacade extends Pick<
  RegistryCenter,
  | 'ownerAppId'
  | 'listApps'
  | 'isKnownApp'
  | 'listServers'
  | 'listPrompts'
  | 'getServer'
  | 'getPrompt'
  | 'listGrants'
  | 'getMcpServersForApp'
  | 'getPromptsForApp'
  | 'hasMcpServerAccess'
  | 'hasPromptAccess'
  | 'kindOf'
  | 'grantMcpServerAccess'
  | 'revokeMcpServerAccess'
  | 'grantPromptAccess'
  | 'revokePromptAccess'
> {
  /** Problems of the registry as it is now: provider DBs and defaults (read at start), and the admin DB (rows failing their schema, missing registrations, unsaved changes). */
  readonly problems: readonly Problem[];
  /** The rows whose plugin may not run now, with the run gate's refusal: listed, marked, offered to no one. */
  notRunnable(rows: readonly { id: string; source: RegistrySource; missing?: unknown }[], part: RunPart): Map<string, RunGateRefusal>;
  /** Registrations whose plugin is gone from every root (`apply`: removed, with their grants). */
  prune(apply: boolean): PruneResult;
  /** The host's own prompts (zh/en pairs), registered under `chatos` and granted like any prompt. */
  readonly prompts: Pick<HostPromptStore, 'list' | 'get' | 'save' | 'remove' | 'setGrant'>;
}
