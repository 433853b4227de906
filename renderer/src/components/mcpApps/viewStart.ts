import { useCallback, useEffect, useState } from 'react';
import type { ViewSignal } from './viewTransport';

/**
 * How far a view got (docs/rules/mcp-apps.md#a-view-that-does-not-start):
 * it starts when it says it is initialized; before that, an error it left
 * uncaught, or silence past START_WITHIN_MS, is said in its frame's place.
 * Neither is final: a view that starts late is shown then.
 */
export type ViewStart = { kind: 'starting'; sandboxUp: boolean } | { kind: 'started' } | { kind: 'failed'; message: string } | { kind: 'silent'; sandboxUp: boolean };

/** Long enough for a large view on a busy machine; a view that starts later still shows. */
export const START_WITHIN_MS = 20_000;

/** The start of the view at `url` (none yet: nothing to wait for), and the listener for its frame's signals. */
export function useViewStart(url: string | undefined): [ViewStart, (signal: ViewSignal) => void] {
  const [start, setStart] = useState<ViewStart>({ kind: 'starting', sandboxUp: false });

  useEffect(() => {
    setStart({ kind: 'starting', sandboxUp: false });
    if (!url) return;
    const timer = window.setTimeout(() => setStart((now) => (now.kind === 'starting' ? { kind: 'silent', sandboxUp: now.sandboxUp } : now)), START_WITHIN_MS);
    return () => window.clearTimeout(timer);
  }, [url]);

  const onSignal = useCallback((signal: ViewSignal) => {
    setStart((now) => {
      if (signal.kind === 'initialized') return { kind: 'started' };
      if (now.kind === 'started' || now.kind === 'failed') return now;
      if (signal.kind === 'error') return { kind: 'failed', message: signal.message };
      return { ...now, sandboxUp: true };
    });
  }, []);

  return [start, onSignal];
}
