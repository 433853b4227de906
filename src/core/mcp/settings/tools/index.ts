import type { ToolModule } from '../types.js';
import { agentsModule } from './agents.tools.js';
import { appsModule } from './apps.tools.js';
import { knowledgeModule } from './knowledge.tools.js';
import { mcpModule } from './mcp.tools.js';
import { registryModule } from './registry.tools.js';

/** Every tool domain of the settings server (docs/rules/settings-server.md#adding-a-domain): a new domain is a new `<domain>.tools.ts` listed here. */
export const MODULES: ToolModule[] = [agentsModule, appsModule, registryModule, mcpModule, knowledgeModule];
