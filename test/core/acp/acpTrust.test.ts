import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { internalsOf } from '../../../src/core/modules/hostInternals.js';
import type { AcpCommand } from '../../../src/shared/agents.js';
import { answerOf, SCRIPTED_AGENT } from '../../helpers/acpAgent.js';
import { chatServerEntry, startChatWorld } from '../../helpers/chatWorld.js';
import { tempDir } from '../../helpers/tempDir.js';

/**
 * The trust gate of agents of kind `acp` (docs/using/acp.md#trust): the program runs only as the person trusted it.
 * A row is data in the admin DB; here it is written through the agent store itself, as anything but the person's
 * faces (another process, an older host, a restored file) would write it.
 */

async function trustWorld() {
  const dir = tempDir('chatos-acp-trust-');
  const marker = path.join(dir, 'started.log');
  const pwned = path.join(dir, 'pwned');
  // Code a changed environment would load into the agent's Node before its own: it must never run.
  const evil = path.join(dir, 'evil.cjs');
  fs.writeFileSync(evil, `require('node:fs').writeFileSync(${JSON.stringify(pwned)}, 'ran')\n`);
  const world = await startChatWorld({ servers: { chat: chatServerEntry() }, agents: [] });
  const program: AcpCommand = { command: process.execPath, args: [SCRIPTED_AGENT], env: { SCRIPTED_ACP_MARKER: marker } };
  const row = { id: 'coder', name: 'Coder', kind: 'acp' as const, acp: program, roots: [dir] };
  const store = internalsOf(world.host).agents.agents;
  const starts = () => (fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8').trim().split('\n').length : 0);
  return { ...world, store, row, program, evil, pwned, starts };
}

describe("the trust gate of an ACP agent's program", () => {
  it('a row never trusted is refused at spawn with the agent named and the fix, nothing started; trusted, it runs', async () => {
    const { host, store, row, starts } = await trustWorld();
    store.create(row);
    const refused = await host.chat.send({ agentId: 'coder', text: 'hello' }).done;
    expect(refused).toMatchObject({ status: 'stopped', stop: { kind: 'error', code: 'ACP_UNTRUSTED' } });
    expect(refused.stop!.message).toContain('ACP agent "coder"');
    expect(refused.stop!.hint).toContain('chatos agents trust coder');
    expect(starts()).toBe(0);

    expect(host.agents.trustProgram('coder').agent.id).toBe('coder');
    const ran = await host.chat.send({ conversationId: refused.conversationId, text: 'hello' }).done;
    expect(answerOf(ran.messages)).toBe('echo: hello (turn 1)');
    expect(starts()).toBe(1);
  });

  it('a program changed after trust (its arguments, PATH, NODE_OPTIONS, LD_PRELOAD in its env, its terminal turned on) is refused, even with its process running', async () => {
    const { host, store, row, program, evil, pwned, starts } = await trustWorld();
    // The person's face: what it saves is trusted as written.
    host.agents.create(row);
    const first = await host.chat.send({ agentId: 'coder', text: 'hello' }).done;
    expect(answerOf(first.messages)).toBe('echo: hello (turn 1)');
    const changes: AcpCommand[] = [
      { ...program, args: [...program.args, '--extra'] },
      { ...program, env: { ...program.env, NODE_OPTIONS: `--require ${evil}` } },
      { ...program, env: { ...program.env, PATH: path.dirname(evil) } },
      { ...program, env: { ...program.env, LD_PRELOAD: evil } },
      // Terminals turned on behind the person's back: a change as much as a new command.
      { ...program, terminal: 'ask' },
    ];
    for (const acp of changes) {
      store.update('coder', { ...row, acp });
      const refused = await host.chat.send({ conversationId: first.conversationId, text: 'again' }).done;
      expect(refused.stop).toMatchObject({ kind: 'error', code: 'ACP_CHANGED', hint: expect.stringContaining('chatos agents trust coder') });
      expect(refused.stop!.message).toContain('ACP agent "coder"');
    }
    expect(fs.existsSync(pwned)).toBe(false);
    expect(starts()).toBe(1);
    // Written back as trusted, it runs again (a new process: the changed row ended the old one).
    store.update('coder', row);
    expect(answerOf((await host.chat.send({ conversationId: first.conversationId, text: 'back' }).done).messages)).toBe('echo: back (turn 1)');
    expect(starts()).toBe(2);
  });

  it('a deleted agent takes its trust with it: a row written again under its id is not trusted', async () => {
    const { host, store, row, starts } = await trustWorld();
    host.agents.create(row);
    expect(host.agents.delete('coder')).toBe(true);
    store.create(row);
    const refused = await host.chat.send({ agentId: 'coder', text: 'hello' }).done;
    expect(refused.stop).toMatchObject({ code: 'ACP_UNTRUSTED' });
    expect(starts()).toBe(0);
  });
});
