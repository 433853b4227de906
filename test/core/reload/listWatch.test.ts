import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../../../src/core/hostEvents.js';
import { LIST_POLL_MS } from '../../../src/core/reload/listWatch.js';
import { EventQueue } from '../../helpers/eventQueue.js';
import { startTestHost } from '../../helpers/gatewayHost.js';
import { runCli } from '../../helpers/runCli.js';
import { TestScheduler } from '../../helpers/testScheduler.js';

/**
 * The faces' lists stay live whoever changes them (issue 45, item 7): a
 * model, an agent or a knowledge base added, changed or removed by another
 * process on the same data home (the CLI beside a running window) is told
 * to this host's faces within one poll, with what changed; a poll that
 * finds nothing changed tells nothing.
 */

type ListsChanged = Extract<HostEvent, { kind: 'lists-changed' }>;

async function watchedHost() {
  const scheduler = new TestScheduler();
  const world = await startTestHost(() => {}, { scheduler });
  const told = new EventQueue<ListsChanged['changes']>();
  world.host.events.on((event) => event.kind === 'lists-changed' && told.push(event.changes));
  const cli = async (...args: string[]) => expect((await runCli([...args, '--home', world.home])).code, args.join(' ')).toBe(0);
  return { ...world, scheduler, told, cli };
}

describe('live lists', () => {
  it('tells of models, agents and knowledge bases another process changed, and only of those', async () => {
    const { scheduler, told, cli, pluginRoot } = await watchedHost();

    await cli('models', 'add', 'other', '--api', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'gpt-x');
    scheduler.advance(LIST_POLL_MS);
    expect(await told.next()).toEqual([{ list: 'models', ids: ['other'] }]);

    const file = path.join(pluginRoot, 'agent.json');
    fs.writeFileSync(file, JSON.stringify({ id: 'writer', name: 'Writer', modelId: 'other' }));
    await cli('agents', 'create', '--file', file);
    await cli('kb', 'create', 'Garden notes');
    scheduler.advance(LIST_POLL_MS);
    expect(await told.next()).toEqual([
      { list: 'agents', ids: ['writer'] },
      { list: 'knowledge', ids: ['garden_notes'] },
    ]);

    // A poll with nothing changed says nothing; the next change is told alone.
    scheduler.advance(LIST_POLL_MS);
    await cli('models', 'remove', 'other');
    scheduler.advance(LIST_POLL_MS);
    expect(await told.next()).toEqual([{ list: 'models', ids: ['other'] }]);
    expect(told.length).toBe(0);
  });
});
