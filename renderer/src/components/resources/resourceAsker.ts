import type { HostApiResult } from '../../../../src/shared/hostApi';

/** Who asks for a server's resources: an agent in a flow, in a conversation (the host checks its access to each server). */
export interface ResourceAsker {
  agentId: string;
  flow: 'main' | 'sub';
  conversationId: string;
}

export type ResourceListing = HostApiResult<'resources.list'>;
export type ResourceRead = HostApiResult<'resources.read'>;
export type ResourceTemplate = ResourceListing['templates'][number];
