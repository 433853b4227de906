import { describe, expect, it } from 'vitest';
import { derivePromptNames, deriveServerName, deriveToolName, exposeDefaultsBaseName, normalizeName } from '../../../src/core/naming/names.js';

describe('normalizeName (docs/rules/names-and-exposure.md#derived-names)', () => {
  it.each([
    ['com.example.tools.db-client', 'com_example_tools_db-client'],
    ['ABC123', 'abc123'],
    ['Db.Client', 'db_client'],
    ['a b!c', 'a_b_c'],
    ['a  b', 'a__b'], // one `_` per character, runs are not collapsed
    ['a_-_b', 'a_-_b'], // `_` and `-` are kept
    ['__x__', 'x'], // `_` trimmed at both ends
    ['..x..', 'x'], // characters that became `_` are trimmed too
    ['-x-', '-x-'], // only `_` is trimmed, never `-`
    ['_-x-_', '-x-'],
    ['数据库.app', 'app'],
    ['app.数据库.v2', 'app_____v2'],
    ['Ünïcode', 'n_code'],
    ['___', ''],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(normalizeName(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const name of ['Com.Example.Tools.DB-Client', '  spaced  ', '-_-', 'a.b_c']) {
      expect(normalizeName(normalizeName(name))).toBe(normalizeName(name));
    }
  });
});

describe('deriveServerName', () => {
  it.each([
    ['com.example.tools', 'db-client', 'com.example.tools.db-client'],
    ['chatos.notes', 'notes', 'chatos.notes.notes'],
    ['A_B', 'C', 'A_B.C'], // kept as written: normalizing is for prompt and tool names
  ])('%s + %s → %s', (pluginId, appId, expected) => {
    expect(deriveServerName(pluginId, appId)).toBe(expected);
  });
});

describe('derivePromptNames', () => {
  it.each([
    ['com.example.tools.db-client', 'mcp_com_example_tools_db-client', 'mcp_com_example_tools_db-client__en'],
    ['Chatos.Notes.notes', 'mcp_chatos_notes_notes', 'mcp_chatos_notes_notes__en'],
    ['_x_.y', 'mcp_x__y', 'mcp_x__y__en'],
  ])('%s → zh %s, en %s', (serverName, zh, en) => {
    expect(derivePromptNames(serverName)).toEqual({ zh, en });
  });
});

describe('deriveToolName', () => {
  it.each([
    ['chatos.notes.notes', 'add_note', 'mcp_chatos_notes_notes_add_note'],
    ['com.example.tools.db-client', 'query', 'mcp_com_example_tools_db-client_query'],
    ['Srv', 'Run-It', 'mcp_srv_Run-It'], // the tool's own name is kept as the server reports it
  ])('%s / %s → %s', (serverName, tool, expected) => {
    expect(deriveToolName(serverName, tool)).toBe(expected);
  });
});

describe('exposeDefaultsBaseName (docs/rules/names-and-exposure.md#exposure)', () => {
  it.each([
    ['chatos.workbench', 'panel', 'chatos.workbench__panel'],
    ['Com.Example.Tools', 'DB-Client', 'com.example.tools__db-client'],
    ['a b', 'c/d', 'a_b__c_d'],
    ['x:y', 'z\\w', 'x_y__z_w'],
    ['p', '数据', 'p____'],
  ])('%s + %s → %s', (pluginId, appId, expected) => {
    expect(exposeDefaultsBaseName(pluginId, appId)).toBe(expected);
  });
});
