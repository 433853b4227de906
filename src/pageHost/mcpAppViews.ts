import { createHash, randomBytes } from 'node:crypto';
import type { AppView } from '../core/facades/tools.js';

/** Views kept for their frames to load (and reload); the oldest is forgotten past it. */
const VIEWS_KEPT = 64;
/**
 * Characters of the views kept together: a view may be up to a server's `maxViewBytes` (16 MB by default), and 64
 * of those would hold a gigabyte; past it the oldest are forgotten (the newest is always kept).
 */
const VIEW_CHARS_KEPT = 64 * 1024 * 1024;

/** A view as kept: the document and the site (its sandbox's origin host) it is served at. */
export interface KeptView {
  view: AppView;
  site: string;
}

/**
 * The site of a view: the host name of the origin its sandbox runs at
 * (docs/rules/mcp-apps.md#the-frame), one per app and the party it acts for.
 * Views of one server for one caller (one conversation, one agent) share it,
 * so what a view keeps in its storage is there when it is shown again; any
 * other app, or the same app for another conversation, is another origin.
 * A hash: a DNS label of lower-case hex, which says nothing of the names.
 */
export function viewSite(serverId: string, actsFor: string): string {
  return createHash('sha256').update(`${serverId}\u0000${actsFor}`, 'utf8').digest('hex').slice(0, 32);
}

/**
 * The MCP App views a face has read and not yet forgotten, each under an
 * unguessable id (docs/rules/mcp-apps.md#the-frame): the id in the frame's
 * url is the capability, and it is served only at its own site.
 */
export class McpAppViews {
  private readonly views = new Map<string, KeptView>();
  private chars = 0;

  put(view: AppView, site: string): string {
    const id = randomBytes(24).toString('base64url');
    this.views.set(id, { view, site });
    this.chars += view.html.length;
    while (this.views.size > VIEWS_KEPT || (this.chars > VIEW_CHARS_KEPT && this.views.size > 1)) {
      const oldest = this.views.keys().next().value!;
      this.chars -= this.views.get(oldest)!.view.html.length;
      this.views.delete(oldest);
    }
    return id;
  }

  /** The view kept under `id` for `site`; none when either does not match. */
  get(id: string, site: string): AppView | undefined {
    const kept = this.views.get(id);
    return kept?.site === site ? kept.view : undefined;
  }
}
