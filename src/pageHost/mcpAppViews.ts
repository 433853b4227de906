import { randomBytes } from 'node:crypto';
import type { AppView } from '../core/facades/tools.js';

/** Views kept for their frames to load (and reload); the oldest is forgotten past it. */
const VIEWS_KEPT = 64;
/**
 * Characters of the views kept together: a view may be up to a server's `maxViewBytes` (16 MB by default), and 64
 * of those would hold a gigabyte; past it the oldest are forgotten (the newest is always kept).
 */
const VIEW_CHARS_KEPT = 64 * 1024 * 1024;

/**
 * The MCP App views a face has read and not yet forgotten, each under an
 * unguessable id (docs/rules/mcp-apps.md#the-frame): the id in the frame's
 * url is the capability, as a sandboxed frame sends no cookie.
 */
export class McpAppViews {
  private readonly views = new Map<string, AppView>();
  private chars = 0;

  put(view: AppView): string {
    const id = randomBytes(24).toString('base64url');
    this.views.set(id, view);
    this.chars += view.html.length;
    while (this.views.size > VIEWS_KEPT || (this.chars > VIEW_CHARS_KEPT && this.views.size > 1)) {
      const oldest = this.views.keys().next().value!;
      this.chars -= this.views.get(oldest)!.html.length;
      this.views.delete(oldest);
    }
    return id;
  }

  get(id: string): AppView | undefined {
    return this.views.get(id);
  }
}
