import type { Problem } from '../../shared/problems.js';
import { MAX_TOOL_NAME_LENGTH } from '../mcp/catalog/toolNaming.js';
import { defaultToolPrefix, deriveServerName, normalizeName } from './names.js';

/**
 * A plugin app's tools are offered as `mcp_<normalize(pluginId.appId)>_<tool>`
 * (docs/rules/names-and-exposure.md#derived-names), and a name longer than 64 characters is never offered
 * (docs/rules/mcp-yaml.md#tool-names-and-transforms). Validation cannot know the tool names before the server runs, but it
 * knows the prefix: when the prefix alone leaves no room, the server can
 * offer no tool at all; when it leaves little, most real tool names do not
 * fit. Both are said before anything runs.
 */

/** Fewer characters left than this for the tool's own name is a warning: `list_directory` alone has 14. */
export const MIN_TOOL_NAME_ROOM = 16;

/** The prefix of an app's default tool names and how many characters it leaves for the tool's own name. */
export function toolNameRoom(pluginId: string, appId: string): { prefix: string; room: number } {
  const prefix = defaultToolPrefix(deriveServerName(pluginId, appId));
  return { prefix, room: MAX_TOOL_NAME_LENGTH - prefix.length };
}

/** The fix, with the numbers: how long the two ids may be, normalized and joined. */
export function shortenIdsHint(pluginId: string, appId: string): string {
  const { room } = toolNameRoom(pluginId, appId);
  const joined = normalizeName(deriveServerName(pluginId, appId));
  const target = joined.length - (MIN_TOOL_NAME_ROOM - room);
  return `shorten the plugin id "${pluginId}" or the app id "${appId}": normalized and joined ("${joined}") they are ${joined.length} characters; keep them to ${target} to leave ${MIN_TOOL_NAME_ROOM} for tool names`;
}

/** An error when no tool name fits after the prefix, a warning when fewer than MIN_TOOL_NAME_ROOM characters do; else undefined. */
export function toolNameRoomProblem(pluginId: string, appId: string, file: string, jsonPath: string): Problem | undefined {
  const { prefix, room } = toolNameRoom(pluginId, appId);
  if (room >= MIN_TOOL_NAME_ROOM) return undefined;
  const hint = shortenIdsHint(pluginId, appId);
  if (room < 1) {
    return {
      severity: 'error',
      code: 'TOOL_PREFIX_TOO_LONG',
      file,
      path: jsonPath,
      message: `app "${appId}" would offer no tool: every tool name of its server starts with "${prefix}" (${prefix.length} characters), and a tool name may have at most ${MAX_TOOL_NAME_LENGTH}`,
      hint,
    };
  }
  return {
    severity: 'warning',
    code: 'TOOL_PREFIX_LONG',
    file,
    path: jsonPath,
    message: `only ${room} character${room === 1 ? '' : 's'} remain for the tool names of app "${appId}": they start with "${prefix}" (${prefix.length} of ${MAX_TOOL_NAME_LENGTH} characters), so a tool whose own name is longer is not offered`,
    hint,
  };
}
