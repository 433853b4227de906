import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isValidToolName } from '../../../src/core/naming/toolNaming.js';
import { settingsToolName } from '../../../src/core/settingsServer/settingsServer.js';
import { MODULES } from '../../../src/core/settingsServer/tools/index.js';
import type { ToolModule } from '../../../src/core/settingsServer/types.js';
import { repoRoot } from '../../helpers/tempDir.js';

const TOOLS_DIR = path.join(repoRoot, 'src', 'core', 'settingsServer', 'tools');

const isToolModule = (value: unknown): value is ToolModule => typeof (value as ToolModule)?.domain === 'string' && Array.isArray((value as ToolModule)?.tools);

describe('tool modules follow one file per domain (docs/rules/settings-server.md#adding-a-domain)', () => {
  it('each domain is unique and every tool name is unique across modules', () => {
    const domains = MODULES.map((m) => m.domain);
    expect(new Set(domains).size).toBe(domains.length);
    const names = MODULES.flatMap((m) => m.tools.map((t) => t.name));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it('each module lives in <domain>.tools.ts, exports exactly that module, and every such file is listed in MODULES', async () => {
    const files = fs
      .readdirSync(TOOLS_DIR)
      .filter((f) => f.endsWith('.tools.ts'))
      .sort();
    expect(files).toEqual(MODULES.map((m) => `${m.domain}.tools.ts`).sort());
    for (const file of files) {
      const exported = Object.values(await import(path.join(TOOLS_DIR, file))).filter(isToolModule);
      expect(exported, file).toHaveLength(1);
      expect(MODULES, file).toContain(exported[0]);
      expect(`${exported[0]!.domain}.tools.ts`).toBe(file);
    }
  });

  it('every tool has a valid name (raw and as the gateway offers it), a description and an object input shape', () => {
    for (const tool of MODULES.flatMap((m) => m.tools)) {
      expect(isValidToolName(tool.name), tool.name).toBe(true);
      expect(settingsToolName(tool.name)).toBe(`mcp_settings_${tool.name}`);
      expect(tool.description.length, tool.name).toBeGreaterThan(10);
      expect(typeof tool.inputSchema).toBe('object');
    }
  });

  it("every confirm tool, every write tool with arguments that are not low-risk, and every tool of an agent's private data declares its risk and a summary for the confirmation; other tools declare neither", () => {
    for (const tool of MODULES.flatMap((m) => m.tools)) {
      const writeAsks = tool.permission === 'write' && Object.keys(tool.inputSchema).some((name) => !tool.lowRisk || !Object.hasOwn(tool.lowRisk, name) || tool.lowRisk[name] !== 'any');
      // A tool showing one agent's private data asks when that agent is another than the caller.
      const asksSometimes = writeAsks || tool.privateToAgent !== undefined;
      if (tool.permission === 'confirm' || asksSometimes) {
        expect(tool.risk, tool.name).toBeDefined();
        expect(tool.summary, tool.name).toBeTypeOf('function');
      } else {
        expect(tool.risk, tool.name).toBeUndefined();
        expect(tool.summary, tool.name).toBeUndefined();
      }
    }
  });

  it('declares the levels the brief asks for', () => {
    const levels = Object.fromEntries(MODULES.flatMap((m) => m.tools.map((t) => [t.name, t.permission])));
    expect(levels).toEqual({
      list_agents: 'read',
      get_agent: 'read',
      create_agent: 'confirm',
      update_agent: 'write',
      delete_agent: 'confirm',
      list_always_allowed: 'read',
      revoke_always_allowed: 'write',
      list_agent_memories: 'read',
      forget_agent_memory: 'confirm',
      list_apps: 'read',
      rescan_apps: 'write',
      list_registry_servers: 'read',
      list_registry_prompts: 'read',
      list_contribution_copies: 'read',
      set_sync_ai_contributes: 'write',
      grant_access: 'confirm',
      revoke_access: 'confirm',
      list_mcp_servers: 'read',
      set_tool_enabled: 'write',
      // docs/rules/knowledge.md#the-settings-tools, exactly.
      list_knowledge_bases: 'read',
      get_knowledge_base: 'read',
      create_knowledge_base: 'confirm',
      update_knowledge_base: 'write',
      delete_knowledge_base: 'confirm',
      search_knowledge_base: 'read',
      list_documents: 'read',
      add_document: 'confirm',
      delete_document: 'confirm',
    });
  });
});
