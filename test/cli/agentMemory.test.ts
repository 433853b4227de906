import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

describe('chatos agents memory', () => {
  it('lists what an agent saved through the gateway, searches it by words, and forgets one', async () => {
    const home = tempDir();
    const cli = (...args: string[]) => runCli([...args, '--home', home]);
    const file = path.join(tempDir('chatos-agent-files-'), 'keeper.json');
    fs.writeFileSync(file, JSON.stringify({ id: 'keeper', name: 'Keeper', memory: { enabled: true } }));
    expect((await cli('agents', 'create', '--file', file)).code).toBe(0);

    // A memory tool asks no one, even without a terminal and without --yes: it is served before confirmation.
    const saved = await cli('call', 'memory_remember', '--agent', 'keeper', '--args', JSON.stringify({ text: 'The build server is called Hopper.' }), '--json');
    expect(saved.stderr).toBe('');
    expect(saved.code).toBe(0);
    expect((await cli('call', 'memory_remember', '--agent', 'keeper', '--args', JSON.stringify({ text: 'Releases go out on Fridays.' }))).code).toBe(0);

    const listed = await cli('agents', 'memory', 'list', 'keeper', '--json');
    expect(listed.code).toBe(0);
    const listing = listed.json();
    expect(listing).toMatchObject({ agentId: 'keeper', enabled: true, space: 'agent:keeper', total: 2 });
    const hopper = listing.memories.find((m: { text: string }) => m.text.includes('Hopper'));
    expect(hopper.by).toBe('keeper');

    const found = await cli('agents', 'memory', 'list', 'keeper', '--query', 'build server');
    expect(found.code).toBe(0);
    expect(found.stdout).toContain('agent:keeper: 1 of 2 memories (memory on for keeper)');
    expect(found.stdout).toContain(`${hopper.id}`);
    expect(found.stdout).toContain('The build server is called Hopper.');

    expect((await cli('agents', 'memory', 'forget', 'keeper', hopper.id)).stdout).toContain(`forgot ${hopper.id} of agent keeper`);
    const again = await cli('agents', 'memory', 'forget', 'keeper', hopper.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no memory "${hopper.id}" in agent:keeper [MEMORY_NOT_FOUND]`);
    expect(again.stderr).toContain('list the memories to see their ids');
    expect((await cli('agents', 'memory', 'list', 'keepr')).stderr).toContain('did you mean "keeper"');
    expect((await cli('agents', 'memory', 'list', 'keeper', '--json')).json().total).toBe(1);
  });
});
