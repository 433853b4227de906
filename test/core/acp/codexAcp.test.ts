import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation.js';
import type { AssistantMessage, ToolMessage } from '../../../src/shared/chat.js';
import { agentUsing, chatServerEntry, startChatWorld } from '../../helpers/chatWorld.js';
import { waitUntil } from '../../helpers/gatewayHost.js';
import { confirm, onAsked } from '../../helpers/questions.js';
import { repoRoot, tempDir } from '../../helpers/tempDir.js';

/**
 * A real ACP agent from npm, run unmodified: Zed's Codex adapter (`@zed-industries/codex-acp`), its model pointed at
 * the tests' local provider server (OpenAI Responses on loopback) through Codex's own config. It is offered the
 * ChatOS agent's granted servers through the gateway, and calls one.
 */
const CODEX_ACP = path.join(repoRoot, 'node_modules', '@zed-industries', 'codex-acp', 'bin', 'codex-acp.js');

describe('Codex as an ACP agent of ChatOS', () => {
  it('calls a granted MCP tool through the gateway: its permission request is the confirmation card, the call is audited', async () => {
    const roots = tempDir('chatos-codex-roots-');
    const codexHome = tempDir('chatos-codex-home-');
    const world = await startChatWorld({ servers: { chat: chatServerEntry(), other: chatServerEntry() }, agents: [] });
    const { host, provider } = world;
    fs.writeFileSync(
      path.join(codexHome, 'config.toml'),
      `model = "test-model"\nmodel_provider = "local"\n[model_providers.local]\nname = "local"\nbase_url = "${provider.openaiUrl}"\nwire_api = "responses"\nenv_key = "LOCAL_API_KEY"\n`,
    );
    host.agents.create(
      agentUsing(['chat'], {
        id: 'codex',
        name: 'Codex',
        kind: 'acp',
        acp: { command: process.execPath, args: [CODEX_ACP], env: { CODEX_HOME: codexHome, LOCAL_API_KEY: 'test-key' } },
        roots: [roots],
      }),
    );
    const asked: ToolConfirmationRequest[] = [];
    onAsked(host, 'toolConfirmation', (request) => {
      asked.push(request);
      confirm(host, request.id, true);
    });
    // Codex groups an MCP server's tools in a namespace named after the server ChatOS offered it: `chatos`.
    provider.enqueue(
      { kind: 'reply', toolCalls: [{ id: 'c1', namespace: 'mcp__chatos', name: 'mcp_chat_echo', arguments: { text: 'through the gateway' } }] },
      { kind: 'reply', text: 'done calling' },
    );
    const outcome = await host.chat.send({ agentId: 'codex', text: 'echo it' }).done;
    expect(outcome.status).toBe('done');

    // Offered: the granted server's tools, not the other's.
    const offered = provider.requests[0]!.body.tools.find((t: { name?: string }) => t.name === 'mcp__chatos');
    const names = offered.tools.map((t: { name: string }) => t.name);
    expect(names).toContain('mcp_chat_echo');
    expect(names.filter((n: string) => n.startsWith('mcp_other_'))).toEqual([]);

    // Codex asked before calling the tool: the person was asked on the confirmation card.
    expect(asked[0]).toMatchObject({ serverName: 'ACP agent Codex', agentId: 'codex', conversationId: outcome.conversationId });
    const card = outcome.messages.find((m): m is ToolMessage => m.role === 'tool')!;
    expect(card).toMatchObject({ callId: 'c1', status: 'ok', content: [{ type: 'text', text: 'through the gateway' }] });
    expect(
      outcome.messages
        .filter((m): m is AssistantMessage => m.role === 'assistant')
        .map((m) => m.text)
        .join(''),
    ).toContain('done calling');
    await waitUntil(() => host.audit.query({ tool: 'mcp_chat_echo' }).length > 0, 'the call on the audit', 20_000);
    expect(host.audit.query({ tool: 'mcp_chat_echo' })[0]).toMatchObject({ agentId: 'codex', conversationId: outcome.conversationId, serverId: 'chatos::chat', outcome: 'ok' });
  }, 60_000);
});
