import * as path from 'node:path';
import { confirm, onAsked } from '../../../helpers/questions.js';
import { describe, expect, it } from 'vitest';
import type { ToolConfirmationRequest } from '../../../../src/shared/confirmation.js';
import { internalsOf } from '../../../../src/core/modules/hostInternals.js';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';

/**
 * A tool name belongs to the server that held it until that server drops it
 * (docs/rules/mcp-yaml.md#tool-names-and-transforms). `mcp_<server>_<tool>` is ambiguous when one server's
 * name is a prefix of another's: `mail` adding `box_send` by a re-list would
 * make `mcp_mail_box_send`, the name of `mail_box`'s confirm-level `send`.
 * Two real stdio servers, one re-list.
 */

const SERVER = path.join(import.meta.dirname, '..', '..', '..', 'fixtures', 'servers', 'changingToolsServer.mjs');
const changing = (extra: Record<string, unknown> = {}) => ({ transport: 'stdio', command: process.execPath, args: [SERVER], ...extra });

describe('a re-list cannot take a tool name another server holds', () => {
  it("mcp_mail_box_send stays mail_box's, asks at its level, and mail's new box_send is refused with a problem", async () => {
    const { host } = await startTestHost(({ home }) =>
      writeMcpYaml(home, {
        mail: changing(),
        mail_box: changing({ env: { CHANGING_TOOLS: 'send' }, permissions: { send: 'confirm' } }),
      }),
    );
    const who = caller('conv-names');
    const owners = async () => Object.fromEntries((await host.tools.list(who)).tools.map((tool) => [tool.name, `${tool.serverId}/${tool.permission}`]));
    expect((await owners()).mcp_mail_box_send).toBe('chatos::mail_box/confirm');

    // mail's list changes: the host hears it (mcp-tools-changed) and lists mail again.
    const relisted = new Promise<void>((resolve) => {
      const stop = host.events.on((event) => {
        if (event.kind === 'mcp-tools-changed' && event.serverId === 'chatos::mail') resolve(stop());
      });
    });
    expect(textOf((await host.tools.call(who, 'mcp_mail_add_tool', { name: 'box_send' })).result)).toBe('added box_send');
    await relisted;
    expect(
      internalsOf(host)
        .mcp.runtime.cachedTools('chatos::mail')
        ?.map((tool) => tool.name),
    ).toContain('box_send');

    const listing = await host.tools.list(who);
    expect(listing.tools.filter((tool) => tool.name === 'mcp_mail_box_send').map((tool) => `${tool.serverId}/${tool.permission}`)).toEqual(['chatos::mail_box/confirm']);
    expect(listing.problems).toContainEqual(
      expect.objectContaining({
        code: 'TOOL_NAME_COLLISION',
        file: expect.stringContaining('mcp.yaml'),
        message: 'tool "box_send" of server "mail" (chatos::mail) is not offered: its name "mcp_mail_box_send" is already taken by tool "send" of server "mail_box" (chatos::mail_box)',
      }),
    );

    // The call reaches mail_box, and only once the user says yes.
    const question = new Promise<ToolConfirmationRequest>((resolve) => onAsked(host, 'toolConfirmation', (request) => resolve(request)));
    const call = host.tools.call(who, 'mcp_mail_box_send', {});
    const asked = await question;
    expect(asked).toMatchObject({ serverName: 'chatos::mail_box', toolName: 'mcp_mail_box_send' });
    confirm(host, asked.id, true);
    expect(textOf((await call).result)).toBe('I am send');
  }, 60_000);
});
