import type { ServerDefinition } from '../../shared/mcp.js';
import { serverTrouble, type ServerTrouble, type StartFailure } from './serverTrouble.js';

export interface ServerTroublesDeps {
  definition(serverId: string): ServerDefinition | undefined;
  /** The definition's last failed start, while it is the definition that failed. */
  startFailure(definition: ServerDefinition): StartFailure | undefined;
  /** The environment a server's command is looked up in (its PATH). */
  hostEnv: NodeJS.ProcessEnv;
  mcpConfigFile: string;
  now(): number;
}

/**
 * What is wrong with a server now, by id, for its card, the Problems page,
 * its app and the agents that use it: a command that is not there (seen
 * without starting it), else its last failed start. An unknown id, and a
 * server with nothing known to be wrong, have none.
 */
export class ServerTroubles {
  constructor(private readonly deps: ServerTroublesDeps) {}

  of(serverId: string): ServerTrouble | undefined {
    const { deps } = this;
    const definition = deps.definition(serverId);
    return definition && serverTrouble(definition, deps.startFailure(definition), deps.hostEnv, deps.mcpConfigFile, deps.now());
  }
}
