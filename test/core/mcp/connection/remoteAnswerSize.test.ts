import { describe, expect, it } from 'vitest';
import { startBigAnswerServer } from '../../../helpers/bigAnswerServer.js';
import { startEndlessServer } from '../../../helpers/endlessServer.js';
import { caller, startTestHost, textOf, writeMcpYaml } from '../../../helpers/gatewayHost.js';

/**
 * A remote (streamable HTTP) server's answer is bounded like a stdio
 * server's line (docs/rules/security.md#sizes-and-depths): 4 MiB per
 * message. A 6 MB answer is refused with what happened, as a JSON body and
 * as an event of an event stream, and the session goes on: the next call
 * of the same conversation works.
 */
describe('a remote MCP server answering more than one message may hold', { timeout: 300_000 }, () => {
  for (const eventStream of [false, true]) {
    it(`is refused with its size, and the next call works (${eventStream ? 'an event stream' : 'a JSON body'})`, async () => {
      const big = await startBigAnswerServer({ eventStream });
      const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { big: { transport: 'streamable_http', url: big.url } }));
      const who = caller('conv-big');

      // The call fails with what happened (the chat shows it, and tells the model), naming the server's origin only.
      const refused = await host.tools.call(who, 'mcp_big_huge', { megabytes: 6 }).then(
        () => undefined,
        (error: Error) => error.message,
      );
      expect(refused).toContain(`the answer from ${new URL(big.url).origin} was larger than 4 MiB (the limit of one MCP message); it was not read`);
      expect(refused).not.toContain('/mcp');

      const after = await host.tools.call(who, 'mcp_big_small', {});
      expect(textOf(after.result)).toBe('small answer');
      // An answer under the limit passes whole.
      const three = await host.tools.call(who, 'mcp_big_huge', { megabytes: 3 });
      expect(textOf(three.result)).toHaveLength(3 * 1024 * 1024);
    });
  }

  for (const [kind, options] of [
    ['a JSON body', { head: '{"jsonrpc":"2.0","id":0,"result":{"x":"' }],
    ['one event', { head: 'event: message\ndata: {"jsonrpc":"2.0","id":0,"result":{"x":"', headers: { 'content-type': 'text/event-stream' } }],
  ] as const) {
    it(`that never ends (${kind}) is read no further than the limit: the start fails with what happened`, async () => {
      const endless = await startEndlessServer(options);
      const { host } = await startTestHost(({ home }) => writeMcpYaml(home, { endless: { transport: 'streamable_http', url: endless.url } }));
      const listed = await host.tools.list(caller('conv-endless'));
      expect(listed.tools.filter((t) => t.serverId === 'chatos::endless')).toEqual([]);
      expect(listed.problems.map((p) => p.message).join('\n')).toContain(`the answer from ${endless.origin} was larger than 4 MiB`);
      await endless.closed;
      // What was read stopped at the limit (plus what the sockets had buffered), not at the server's will.
      expect(endless.written).toBeLessThan(64 * 1024 * 1024);
    });
  }
});
