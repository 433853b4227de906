import { describe, expect, it } from 'vitest';
import { ChatError } from '../../../src/core/facades/errors.js';
import type { UserMessage } from '../../../src/shared/chat.js';
import { agentUsing, startChatWorld } from '../../helpers/chatWorld.js';
import { EVERYTHING_SERVER } from '../../helpers/gatewayHost.js';

/**
 * A server's resource attached to a message (docs/using/resources.md#mention):
 * read as the agent's caller, sent to the model as text under its uri with
 * the server it came from, cut at the server's cap with a note, and kept on
 * the message like a file.
 */

const SERVER = 'chatos::everything';
const everything = { everything: { transport: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], maxResultChars: 1000 } };

/** The user message of an OpenAI chat request, as sent. */
const userContent = (body: any): any[] => {
  const user = body.messages.filter((m: any) => m.role === 'user').at(-1);
  return typeof user.content === 'string' ? [{ type: 'text', text: user.content }] : user.content;
};

describe('a resource attached to a message', () => {
  it('reaches the model as its text under its uri, cut at the cap with a note, and stays on the message', async () => {
    const { host, provider } = await startChatWorld({ servers: everything, agents: [agentUsing(['everything'])] });
    provider.enqueue({ kind: 'reply', text: 'read it' });
    const { caller } = host.tools.callers.agent('helper', 'main', 'chat-draft');
    const uri = 'demo://resource/static/document/features.md';
    const pending = await host.chat.attachResource(await host.tools.resources.read(caller, SERVER, uri));
    expect(pending).toMatchObject({ kind: 'document', name: uri, mimeType: 'text/markdown', chars: 1000, resource: { serverId: SERVER, uri } });
    expect(pending.totalChars).toBeGreaterThan(5000);

    const outcome = await host.chat.send({ agentId: 'helper', text: 'summarize', attachments: [pending.id] }).done;
    const sent = userContent(provider.requests[0]!.body)
      .map((part) => part.text)
      .join('\n');
    expect(sent).toContain(`--- Attached resource ${uri} (from MCP server chatos::everything) ---\n`);
    expect(sent).toContain(`[${uri} was cut: only its first 1000 of`);
    const user = outcome.messages[0] as UserMessage;
    expect(user.attachments?.[0]).toMatchObject({ kind: 'document', resource: { serverId: SERVER, uri } });
    expect((host.chat.get(outcome.conversationId).messages[0] as UserMessage).attachments).toEqual(user.attachments);
  });

  it('a text blob becomes a document; a binary blob that is no image is refused with where to get it', async () => {
    const { host } = await startChatWorld({ servers: everything, agents: [agentUsing(['everything'])] });
    const { caller } = host.tools.callers.agent('helper', 'main', 'chat-draft');
    const text = await host.chat.attachResource(await host.tools.resources.read(caller, SERVER, 'demo://resource/dynamic/blob/2'));
    expect(text).toMatchObject({ kind: 'document', mimeType: 'text/plain' });
    const refused = await host.chat
      .attachResource({ serverId: SERVER, uri: 'demo://zip', contents: [{ uri: 'demo://zip', mimeType: 'application/zip', blob: Buffer.from('PK\u0003\u0004').toString('base64') }] })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ChatError);
    expect((refused as ChatError).message).toContain('demo://zip is binary data (application/zip)');
  });
});
