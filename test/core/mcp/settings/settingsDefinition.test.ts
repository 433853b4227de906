import { describe, expect, it } from 'vitest';
import { ToolConfirmationService } from '../../../../src/core/confirmation/toolConfirmationService.js';
import { resolvePermission } from '../../../../src/core/mcp/gateway/permissions.js';
import { registerSettingsConfirmables, SETTINGS_SERVER_ID, settingsServerDefinition } from '../../../../src/core/mcp/settings/settingsServer.js';
import { MODULES } from '../../../../src/core/mcp/settings/tools/index.js';
import { defineTool, type ToolModule } from '../../../../src/core/mcp/settings/types.js';
import type { ToolConfirmationRequest } from '../../../../src/shared/confirmation.js';
import { ServerDefinitionSchema } from '../../../../src/shared/mcp.js';
import { TestScheduler } from '../../../helpers/testScheduler.js';

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
    const confirmations = new ToolConfirmationService(new TestScheduler());
    registerSettingsConfirmables(confirmations);
    const required: ToolConfirmationRequest[] = [];
    confirmations.on('required', (request) => required.push(request));
    /** The summary a person would read for this call; the request is answered at once. */
    const summaryOf = (toolName: string, args: Record<string, unknown>) => {
      void confirmations.requestConfirmation(SETTINGS_SERVER_ID, toolName, args);
      const request = required.pop()!;
      confirmations.respond(request.id, false);
      return request;
    };
    return { confirmations, summaryOf };
  }

  it('by the name the gateway offers, with the declared risk; read and write tools are not registered', () => {
    const { confirmations } = service();
    for (const tool of allTools()) {
      const offered = `mcp_settings_${tool.name}`;
      expect(confirmations.needsConfirmation(offered), offered).toBe(tool.permission === 'confirm');
      expect(confirmations.needsConfirmation(tool.name), tool.name).toBe(false);
      if (tool.permission === 'confirm') expect(confirmations.getRiskLevel(offered)).toBe(tool.risk);
    }
    expect(confirmations.getRiskLevel('mcp_settings_delete_agent')).toBe('high');
    expect(confirmations.getRiskLevel('mcp_settings_grant_access')).toBe('high');
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
  });

  it('arguments that do not validate are said to, instead of a half-filled sentence', () => {
    const { summaryOf } = service();
    const { summary } = summaryOf('mcp_settings_delete_agent', { ident: 'writer' });
    expect(summary).toMatch(/^Run mcp_settings_delete_agent with arguments that are not valid, so it will fail: id /);
  });
});
