import { describe, expect, it } from 'vitest';
import { formFieldOf, parseFieldPath } from '../../renderer/src/components/agents/fieldPaths.js';

describe('agent editor field paths', () => {
  it('places a save’s field errors in either path format on the field they name', () => {
    expect(parseFieldPath('uiApps[0].mcpServerIds[1]')).toEqual(['uiApps', 0, 'mcpServerIds', 1]);
    // The agent store's format, as agents.save reports it (an id outside the app's exposure, say).
    expect(parseFieldPath('uiApps.0.mcpServerIds.1')).toEqual(['uiApps', 0, 'mcpServerIds', 1]);
    expect(formFieldOf('uiApps.2.promptIds.0')).toEqual(['uiApps', 2, 'promptIds']);
    expect(formFieldOf('name')).toEqual(['name']);
  });
});
