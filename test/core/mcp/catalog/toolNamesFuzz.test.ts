import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../../src/core/mcp/catalog/toolCatalog.js';
import { TOOL_NAME_PATTERN, toolNameFault } from '../../../../src/core/mcp/catalog/toolNaming.js';
import { resolvePermission } from '../../../../src/core/mcp/gateway/permissions.js';
import { ServerSettingsSchema } from '../../../../src/core/mcp/settings/serverSettings.js';
import { PermissionLevelSchema, type Transform } from '../../../../src/shared/mcp.js';
import { ownValue } from '../../../../src/shared/ownKeys.js';
import { ProblemSchema } from '../../../../src/shared/problems.js';
import { testServerDefinition } from '../../../helpers/serverDefinition.js';

/**
 * Property: tool names are whatever a server sends. Through naming, the
 * catalog and permission resolution, no name crashes anything, every tool
 * is either offered under a valid unique name or left out with a problem
 * that says why, and a name that is an Object.prototype member is data
 * like any other. Fixed seeds, so a failure replays.
 */

const PROTOTYPE_NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', '__defineGetter__', 'isPrototypeOf', 'propertyIsEnumerable'];
const anyUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 12 });
const validName = fc.stringMatching(/^[a-zA-Z0-9_-]{1,20}$/);
const toolName = fc.oneof(
  { weight: 4, arbitrary: fc.oneof(validName, fc.constantFrom(...PROTOTYPE_NAMES)) },
  { weight: 2, arbitrary: fc.oneof(anyUnits, fc.string({ maxLength: 12 }), fc.constantFrom('', ' ', 'a b', 'a.b', 'a/b', '🙂', 'é', 'mcp_release')) },
  { weight: 1, arbitrary: fc.integer({ min: 55, max: 90 }).map((n) => 'x'.repeat(n)) },
);
const serverName = fc.oneof(validName, fc.constantFrom(...PROTOTYPE_NAMES, 'a.b', 'x'.repeat(60)), anyUnits);
const pattern = fc.oneof(toolName, fc.constantFrom('*', '*_x', 'get_*', '*o*', '**'));
const transform: fc.Arbitrary<Transform> = fc.oneof(
  toolName.map((prefix) => ({ prefix })),
  fc.record({ remove: toolName, add: toolName }).map((prefix) => ({ prefix })),
  toolName.map((suffix) => ({ suffix })),
);
const annotations = fc.option(fc.record({ destructiveHint: fc.boolean(), readOnlyHint: fc.boolean() }, { requiredKeys: [] }), { nil: undefined });
const level = PermissionLevelSchema;

const server = fc
  .record({
    name: serverName,
    transform: fc.array(transform, { maxLength: 2 }),
    whitelist: fc.array(pattern, { maxLength: 2 }),
    blacklist: fc.array(pattern, { maxLength: 2 }),
    permissions: fc.array(fc.record({ pattern, level: fc.constantFrom(...level.options) }), { maxLength: 3 }),
    disabledTools: fc.array(toolName, { maxLength: 2 }),
    tools: fc.array(fc.record({ name: toolName, annotations }), { maxLength: 8 }),
  })
  .map(({ name, transform, whitelist, blacklist, permissions, disabledTools, tools }) => ({
    definition: testServerDefinition(name, { transform, tools: { whitelist, blacklist }, permissions, disabledTools }),
    tools: tools.map(({ name: raw, annotations }): Tool => ({ name: raw, inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) })),
  }));

/** The codes a listed tool can be left out with, each saying why in its message. */
const LEFT_OUT = new Set(['TOOL_FILTERED', 'TOOL_DISABLED', 'TOOL_NAME_INVALID', 'TOOL_NAME_COLLISION']);

describe('tool names, over arbitrary servers and names', () => {
  it('each listed tool is offered under a valid, unique name, or left out with a problem saying why; invalid names are never offered', () => {
    fc.assert(
      fc.property(fc.array(server, { minLength: 1, maxLength: 3 }), (servers) => {
        const entries = servers.map((s, index) => ({ server: { ...s.definition, id: `chatos::${index}-${s.definition.name}` }, tools: s.tools }));
        const { tools, problems } = buildCatalog(entries, ['mcp_release']);
        for (const problem of problems) expect(ProblemSchema.parse(problem)).toEqual(problem);
        expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
        for (const tool of tools) {
          expect(tool.name).toMatch(TOOL_NAME_PATTERN);
          expect(tool.rawName).toMatch(TOOL_NAME_PATTERN);
          expect(tool.name).not.toBe('mcp_release');
        }
        for (const { server: def, tools: listed } of entries) {
          const offered = tools.filter((t) => t.serverId === def.id).length;
          // A problem's file is the server's id (no mcp.yaml path given): each is about one server.
          const leftOut = problems.filter((p) => LEFT_OUT.has(p.code) && p.file === def.id);
          // Every tool is accounted for exactly once.
          expect(offered + leftOut.length, def.id).toBe(listed.length);
          for (const raw of listed.map((t) => t.name).filter((name) => toolNameFault(name) !== undefined)) {
            expect(tools.some((t) => t.serverId === def.id && t.rawName === raw)).toBe(false);
          }
        }
      }),
      { numRuns: 400, seed: 13 },
    );
  });

  it('a permission rule applies to any name, Object.prototype members included, and an override is only ever one set for that name', () => {
    fc.assert(
      fc.property(toolName, fc.array(fc.tuple(toolName, fc.constantFrom(...level.options)), { maxLength: 4 }), annotations, (name, overrideEntries, hints) => {
        // Stored and read back as the admin DB does: JSON text, parsed by the settings schema.
        const row = ServerSettingsSchema.parse(JSON.parse(JSON.stringify({ serverId: 's', permissionOverrides: Object.fromEntries(overrideEntries) })));
        const set = new Map(overrideEntries);
        expect(ownValue(row.permissionOverrides, name)).toBe(set.get(name));
        const tool = { name, ...(hints ? { annotations: hints } : {}) };
        const everything = testServerDefinition('s', { permissions: [{ pattern: '*', level: 'confirm' }] });
        expect(resolvePermission(everything, tool, ownValue(row.permissionOverrides, name))).toEqual(
          set.has(name) ? { level: set.get(name), source: 'override' } : { level: 'confirm', source: 'config' },
        );
        const plain = resolvePermission(testServerDefinition('s'), tool, undefined);
        expect(level.safeParse(plain.level).success).toBe(true);
        if (hints?.destructiveHint) expect(plain.level).toBe('confirm');
      }),
      { numRuns: 500, seed: 13 },
    );
  });
});
