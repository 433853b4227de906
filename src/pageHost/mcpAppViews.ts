import { randomBytes } from 'node:crypto';
import type { AppView } from '../core/facades/tools.js';

/** Views kept for their frames to load (and reload); the oldest is forgotten past it. */
const VIEWS_KEPT = 64;

/**
 * The MCP App views a face has read and not yet forgotten, each under an
 * unguessable id (docs/rules/mcp-apps.md#the-frame): the id in the frame's
 * url is the capability, as a sandboxed frame sends no cookie.
 */
export class McpAppViews {
  private readonly views = new Map<string, AppView>();

  put(view: AppView): string {
    const id = randomBytes(24).toString('base64url');
    this.views.set(id, view);
    if (this.views.size > VIEWS_KEPT) this.views.delete(this.views.keys().next().value!);
    return id;
  }

  get(id: string): AppView | undefined {
    return this.views.get(id);
  }
}
