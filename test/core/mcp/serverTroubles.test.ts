import { describe, expect, it } from 'vitest';
import type { ServerDefinition } from '../../../src/shared/mcp.js';
import type { StartFailure } from '../../../src/core/mcp/serverTrouble.js';
import { ServerTroubles } from '../../../src/core/mcp/serverTroubles.js';
import { testServerDefinition } from '../../helpers/serverDefinition.js';
import { tempDir } from '../../helpers/tempDir.js';

/** What is wrong with a server by id, over definitions and start failures the test sets. */

function troublesOver(definitions: ServerDefinition[], failures: StartFailure[] = []) {
  return new ServerTroubles({
    definition: (id) => definitions.find((d) => d.id === id),
    startFailure: (definition) => failures.find((f) => f.definition === definition),
    hostEnv: { PATH: tempDir() },
    mcpConfigFile: '/home/chatos/mcp.yaml',
    now: () => 42,
  });
}

const stdio = (name: string, command: string): ServerDefinition => testServerDefinition(name, { transport: { kind: 'stdio', command, args: [], env: {} } });

describe('ServerTroubles', () => {
  it('names a command that is not there, without starting anything, and where to fix it', () => {
    const troubles = troublesOver([stdio('gone', 'no-such-command-here')]);
    expect(troubles.of('chatos::gone')).toMatchObject({ code: 'SERVER_COMMAND_NOT_FOUND', message: expect.stringContaining('"no-such-command-here" was not found on PATH'), at: 42 });
  });

  it("says a server's last failed start while it is the definition that failed, and nothing for one that is fine or unknown", () => {
    const fine = stdio('fine', process.execPath);
    const broken = stdio('broken', process.execPath);
    const troubles = troublesOver([fine, broken], [{ definition: broken, message: 'server "chatos::broken" exited with code 1', at: 7 }]);
    expect(troubles.of('chatos::broken')).toEqual({ code: 'SERVER_START_FAILED', message: 'server "chatos::broken" exited with code 1', fix: expect.any(String), at: 7 });
    expect(troubles.of('chatos::fine')).toBeUndefined();
    expect(troubles.of('chatos::unknown')).toBeUndefined();
  });
});
