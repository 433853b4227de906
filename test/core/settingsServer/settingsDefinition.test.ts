import { describe, expect, it } from 'vitest';
import { confirm, onAsked } from '../../helpers/questions.js';
import { ToolConfirmationService } from '../../../src/core/confirmation/toolConfirmationService.js';
import { resolvePermission } from '../../../src/core/tools/permissions.js';
import { registerSettingsConfirmables, SETTINGS_SERVER_ID, settingsServerDefinition } from '../../../src/core/settingsServer/settingsServer.js';
import { MODULES } from '../../../src/core/settingsServer/tools/index.js';
import { defineTool, type ToolModule } from '../../../src/core/settingsServer/types.js';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation.js';
import { ServerDefinitionSchema } from '../../../src/shared/mcp.js';
import { QuestionBroker } from '../../../src/core/questions/questionBroker.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

const allTools = (modules: ToolModule[] = MODULES) => modules.flatMap((m) => m.tools);

describe('the settings server definition', () => {
  it('is the built-in assistant server chatos::settings, in process, shared, in both flows', () => {
    const definition = settingsServerDefinition();
    expect(ServerDefinitionSchema.parse(definition)).toEqual(definition);
    expect(definition).toMatchObject({
      id: 'chatos::settings',
      name: 'settings',
      providerAppId: 'chatos',
      origin: 'builtin',
      category: 'assistant',
      transport: { kind: 'in-process', server: 'settings' },
      trulyStateless: true,
      allowMain: true,
      allowSub: true,
      timeoutMs: 60_000,
      tools: { whitelist: [], blacklist: [] },
      transform: [],
      disabledTools: [],
      disabled: false,
    });
    expect(SETTINGS_SERVER_ID).toBe(definition.id);
  });

  it("carries every module tool's declared permission as one exact pattern, which the gateway resolves to that level", () => {
    const definition = settingsServerDefinition();
    expect(definition.permissions).toEqual(allTools().map((t) => ({ pattern: t.name, level: t.permission })));
    for (const tool of allTools()) expect(resolvePermission(definition, { name: tool.name }), tool.name).toEqual({ level: tool.permission, source: 'config' });
  });

  it('follows the modules it is given', () => {
    const only: ToolModule = { domain: 'x', tools: [defineTool({ name: 'look', description: 'Looks.', permission: 'navigate', inputSchema: {}, handler: async () => ({ content: [] }) })] };
    expect(settingsServerDefinition([only]).permissions).toEqual([{ pattern: 'look', level: 'navigate' }]);
  });
});

describe('confirm tools register with the confirmation service (docs/rules/settings-server.md#adding-a-domain)', () => {
  function service() {
    const scheduler = new TestScheduler();
    const host = { questions: new QuestionBroker({ scheduler, audit: () => undefined }) };
    const confirmations = new ToolConfirmationService(scheduler, host.questions);
    registerSettingsConfirmables(confirmations);
    const required: ToolConfirmationRequest[] = [];
    onAsked(host, 'toolConfirmation', (request) => required.push(request));
    /** The summary a person would read for this call; the request is answered at once. */
    const summaryOf = (toolName: string, args: Record<string, unknown>) => {
      void confirmations.requestConfirmation(SETTINGS_SERVER_ID, toolName, args);
      const request = required.pop()!;
      confirm(host, request.id, false);
      return request;
    };
    return { confirmations, summaryOf };
  }

  it("by the name the gateway offers, with the declared risk; read tools are not registered (except those of an agent's private data), write tools ask only beyond their low-risk arguments", () => {
    const { confirmations } = service();
    for (const tool of allTools()) {
      const offered = `mcp_settings_${tool.name}`;
      // A tool of an agent's private data asks when no agent (or another) calls: here, no agent.
      const privateData = tool.privateToAgent !== undefined;
      expect(confirmations.needsConfirmation(offered), offered).toBe(tool.permission === 'confirm' || privateData);
      // Any argument no one listed as low-risk makes a write call ask.
      expect(confirmations.needsConfirmation(offered, { somethingElse: 1 }), offered).toBe(tool.permission === 'confirm' || tool.permission === 'write' || privateData);
      expect(confirmations.needsConfirmation(tool.name), tool.name).toBe(false);
      if (tool.permission === 'confirm') expect(confirmations.getRiskLevel(offered)).toBe(tool.risk);
    }
    expect(confirmations.getRiskLevel('mcp_settings_delete_agent')).toBe('high');
    expect(confirmations.getRiskLevel('mcp_settings_grant_access')).toBe('high');
  });

  it('every write tool declares its low-risk arguments; a call giving more asks, whatever else it gives', () => {
    const { confirmations } = service();
    for (const tool of allTools().filter((t) => t.permission === 'write')) expect(tool.lowRisk, tool.name).toBeDefined();
    const asks = (tool: string, args: Record<string, unknown>, agentId?: string) => confirmations.needsConfirmation(`mcp_settings_${tool}`, args, agentId);
    expect(asks('update_agent', { id: 'a', language: 'en' })).toBe(false);
    // An agent's memories: its own read at once, another agent's (or from no agent) ask.
    expect(asks('list_agent_memories', { agentId: 'a', query: 'q', limit: 5 }, 'a')).toBe(false);
    expect(asks('list_agent_memories', { agentId: 'a' }, 'b')).toBe(true);
    expect(asks('list_agent_memories', { agentId: 'a' })).toBe(true);
    // An agent's name and description are read by every agent that may delegate to it: only the agent itself changes its own unasked.
    expect(asks('update_agent', { id: 'a', name: 'A', description: 'd', language: 'en' }, 'a')).toBe(false);
    expect(asks('update_agent', { id: 'a', description: 'd' }, 'b')).toBe(true);
    expect(asks('update_agent', { id: 'a', name: 'A' })).toBe(true);
    expect(asks('update_agent', { id: 'a', description: 'd', uiApps: [] })).toBe(true);
    expect(asks('update_agent', { id: 'a', knowledgeBases: ['kb'] })).toBe(true);
    // Switching memory on (or sharing it) widens what the model keeps and reads.
    expect(asks('update_agent', { id: 'a', memory: { enabled: true } })).toBe(true);
    expect(asks('set_tool_enabled', { serverId: 's', tool: 't', enabled: false })).toBe(false);
    expect(asks('set_tool_enabled', { serverId: 's', tool: 't', enabled: true })).toBe(true);
    expect(asks('update_knowledge_base', { id: 'kb', chunkSize: 500, chunkOverlap: 50 })).toBe(false);
    // A base's name and description are what every agent searching it reads.
    expect(asks('update_knowledge_base', { id: 'kb', name: 'n' })).toBe(true);
    expect(asks('update_knowledge_base', { id: 'kb', description: 'd' })).toBe(true);
    expect(asks('update_knowledge_base', { id: 'kb', embeddingModel: 'm' })).toBe(true);
    expect(asks('update_knowledge_base', { id: 'kb', embeddingModel: null })).toBe(true);
    expect(asks('revoke_always_allowed', { agentId: 'a', toolName: 't' })).toBe(false);
    expect(asks('rescan_apps', {})).toBe(false);
    // A name from the model is data: "__proto__" is one more argument no one listed.
    expect(asks('set_tool_enabled', JSON.parse('{"serverId":"s","tool":"t","enabled":false,"__proto__":{"enabled":"any"}}'))).toBe(true);
  });

  it('with a summary a person can judge', () => {
    const { summaryOf } = service();
    expect(summaryOf('mcp_settings_delete_agent', { id: 'writer' })).toMatchObject({ summary: 'Delete agent "writer"', risk: 'high', serverName: 'chatos::settings' });
    expect(summaryOf('mcp_settings_create_agent', { name: 'Writer' }).summary).toBe('Create agent "Writer" acting for app "chatos"');
    expect(summaryOf('mcp_settings_create_agent', { name: 'Git helper', id: 'git', hostAppId: 'aide', uiApps: [{ pluginId: 'com.example.git', appId: 'status' }] }).summary).toBe(
      'Create agent "Git helper" (id "git") acting for app "aide" using "com.example.git/status"',
    );
    // A model's string cannot end the quote and go on as the sentence: what it names is quoted as JSON.
    expect(summaryOf('mcp_settings_delete_agent', { id: 'scratch" and agent "main' }).summary).toBe('Delete agent "scratch\\" and agent \\"main"');
    expect(summaryOf('mcp_settings_grant_access', { appId: 'aide"\nLet app "x', id: 'a::b' }).summary).toBe('Let app "aide\\"\\nLet app \\"x" use "a::b"');
    expect(summaryOf('mcp_settings_grant_access', { appId: 'aide', id: 'git_app::status' }).summary).toBe('Let app "aide" use "git_app::status"');
    expect(summaryOf('mcp_settings_revoke_access', { appId: 'aide', id: 'git_app::status' }).summary).toBe('Stop app "aide" from using "git_app::status"');
    expect(summaryOf('mcp_settings_update_agent', { id: 'w', uiApps: [{ pluginId: 'p', appId: 'a', mcp: true, mcpServerIds: ['x::y'] }], knowledgeBases: [] })).toMatchObject({
      summary: 'Change agent "w": apps to "p/a" (MCP on: ["x::y"], prompts off); knowledge bases it may search to []',
      risk: 'high',
    });
    expect(summaryOf('mcp_settings_set_tool_enabled', { serverId: 'chatos::fs', tool: 'write_file', enabled: true }).summary).toBe(
      'Switch on tool "write_file" of server "chatos::fs" for every conversation (every model may call it again)',
    );
    expect(summaryOf('mcp_settings_update_knowledge_base', { id: 'docs', embeddingModel: null }).summary).toBe('Change knowledge base "docs": search by words only (no embedding model)');
  });

  it('arguments that do not validate are said to, instead of a half-filled sentence', () => {
    const { summaryOf } = service();
    const { summary } = summaryOf('mcp_settings_delete_agent', { ident: 'writer' });
    expect(summary).toMatch(/^Run mcp_settings_delete_agent with arguments that are not valid, so it will fail: id /);
  });
});
