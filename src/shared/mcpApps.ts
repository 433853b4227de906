import { z } from 'zod';

/**
 * MCP Apps (docs/rules/mcp-apps.md) as the faces and the core share them:
 * a tool's link to its view, and the requests a face makes for the views it
 * renders.
 */

/** A tool's `ui://` view and who may see the tool (`model`: offered to the model; `app`: callable from its view). */
export const ToolUiSchema = z.object({
  resourceUri: z.string().optional(),
  visibility: z.array(z.enum(['model', 'app'])),
});
export type ToolUi = z.infer<typeof ToolUiSchema>;
