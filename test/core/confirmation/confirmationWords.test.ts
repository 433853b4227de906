import { describe, expect, it } from 'vitest';
import { confirm, onAsked } from '../../helpers/questions.js';
import { resolveAgent } from '../../../src/core/agents/agentResolver.js';
import type { ToolConfirmationRequest } from '../../../src/shared/confirmation.js';
import { agentUsing, chatServerEntry } from '../../helpers/chatWorld.js';
import { startTestHost, writeMcpYaml } from '../../helpers/gatewayHost.js';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';

/** A confirmation tells the person what the tool does (its own description), and whether its summary was written for it. */

describe('a confirmation asked through the gateway', () => {
  it("carries the tool's description, and marks the generic summary as not written for the tool", async () => {
    const t = await startTestHost(({ home }) => writeMcpYaml(home, { chat: chatServerEntry() }));
    const agent = t.host.agents.create(agentUsing(['chat']));
    const caller = t.host.agents.resolve(agent).callerFor('main', 'words-1');
    const asked: ToolConfirmationRequest[] = [];
    onAsked(t.host, 'toolConfirmation', (request) => {
      asked.push(request);
      confirm(t.host, request.id, false);
    });
    const outcome = await t.host.tools.call(caller, 'mcp_chat_danger', { what: 'wipe' });
    expect(outcome.decision).toBe('declined');
    expect(asked).toEqual([expect.objectContaining({ toolName: 'mcp_chat_danger', description: 'Destructive: asks for confirmation.', args: { what: 'wipe' } })]);
    expect(asked[0]!.customSummary).toBeUndefined();

    internalsOf(t.host).tools.confirmations.registerConfirmable('mcp_chat_danger', 'high', (args) => `Wipe ${String(args.what)}`);
    await t.host.tools.call(caller, 'mcp_chat_danger', { what: 'the desk' });
    expect(asked[1]).toMatchObject({ summary: 'Wipe the desk', customSummary: true, risk: 'high' });
  });
});
