import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolUi } from '../../../shared/mcpApps.js';

/**
 * A tool's link to an MCP App view (docs/rules/mcp-apps.md#tools-with-a-view): `_meta.ui.resourceUri` (or the
 * older flat `_meta["ui/resourceUri"]`) and who may see the tool, `_meta.ui.visibility` (default both). Read from
 * what a server listed, so every field is checked: a link that is not a bounded `ui://` uri is no link.
 */

const MAX_URI_CHARS = 2048;

const isViewUri = (value: unknown): value is string => typeof value === 'string' && value.startsWith('ui://') && value.length <= MAX_URI_CHARS;

/** The tool's ui link, or undefined for a tool that has neither a view nor a visibility of its own. */
export function toolUiOf(tool: Pick<Tool, '_meta'>): ToolUi | undefined {
  const meta = tool._meta;
  if (!meta || typeof meta !== 'object') return undefined;
  const ui = Object.hasOwn(meta, 'ui') ? (meta.ui as unknown) : undefined;
  const nested = ui && typeof ui === 'object' && !Array.isArray(ui) ? (ui as Record<string, unknown>) : undefined;
  const uri = nested && Object.hasOwn(nested, 'resourceUri') ? nested.resourceUri : Object.hasOwn(meta, 'ui/resourceUri') ? meta['ui/resourceUri'] : undefined;
  const declared = nested && Object.hasOwn(nested, 'visibility') && Array.isArray(nested.visibility) ? nested.visibility : undefined;
  const visibility = declared ? (['model', 'app'] as const).filter((v) => declared.includes(v)) : (['model', 'app'] as const);
  if (!isViewUri(uri) && !declared) return undefined;
  return { ...(isViewUri(uri) ? { resourceUri: uri } : {}), visibility: [...visibility] };
}

/** Whether the model is offered the tool: everything but a tool marked for its app alone. */
export const modelSees = (tool: { ui?: ToolUi }) => !tool.ui || tool.ui.visibility.includes('model');

/** Whether an app's view may call the tool: everything but a tool marked for the model alone. */
export const appSees = (tool: { ui?: ToolUi }) => !tool.ui || tool.ui.visibility.includes('app');
