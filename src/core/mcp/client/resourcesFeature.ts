import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ResourceChange } from '../../../shared/resources.js';
import type { ClientFeature } from './clientFeatures.js';

/**
 * The least time between two events of one resource (or one server's list):
 * a server that says a resource changed 100 times a second is heard a few
 * times a second, never 100 (docs/using/resources.md#subscriptions).
 */
const EVENT_GAP_MS = 200;
/** URIs whose next event waits at once, per connection: past it, updates of more URIs are dropped until the gap ends. */
const MAX_WAITING = 1_000;
/** Characters of a URI kept in an event: a longer one is not a URI the host listed or read. */
const MAX_URI_CHARS = 8 * 1024;

/**
 * A server's `notifications/resources/updated` and
 * `notifications/resources/list_changed` reach the faces as events,
 * coalesced: the first at once, those that follow within the gap as one at
 * its end. Nothing is declared for it (subscribing is the server's
 * capability); an instance without a conversation (a probe) tells no one.
 */
export function resourcesFeature(emit: (change: ResourceChange) => void, gapMs = EVENT_GAP_MS): ClientFeature {
  return {
    name: 'resources',
    attach(session) {
      const { lease } = session;
      if (lease === undefined) return;
      const serverId = session.definition.id;
      const coalesce = coalescer(gapMs);
      session.onNotification(ResourceUpdatedNotificationSchema, ({ params }) => {
        if (params.uri.length > MAX_URI_CHARS) return;
        coalesce(`u:${params.uri}`, () => emit({ change: 'updated', serverId, conversationId: lease, uri: params.uri }));
      });
      session.onNotification(ResourceListChangedNotificationSchema, () => {
        coalesce('list', () => emit({ change: 'list', serverId, conversationId: lease }));
      });
    },
  };
}

/** Runs a key's first event at once; more of the same key within `gapMs` run once, at the gap's end. */
function coalescer(gapMs: number): (key: string, fire: () => void) => void {
  const quiet = new Map<string, { again?: () => void }>();
  const open = (key: string) => {
    const entry: { again?: () => void } = {};
    quiet.set(key, entry);
    setTimeout(() => {
      quiet.delete(key);
      if (entry.again) {
        entry.again();
        open(key);
      }
    }, gapMs).unref();
  };
  return (key, fire) => {
    const entry = quiet.get(key);
    if (entry) {
      entry.again = fire;
      return;
    }
    if (quiet.size >= MAX_WAITING) return;
    fire();
    open(key);
  };
}
