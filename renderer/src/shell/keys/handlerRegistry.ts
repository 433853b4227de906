import { useEffect, useRef } from 'react';

/**
 * Handlers by key, each registered by a mounted component: what a key
 * press (or the palette) asks of whatever part of the window answers it now.
 * A key nobody answers does nothing.
 */
export function handlerRegistry<K>() {
  const handlers = new Map<K, () => boolean | void>();
  return {
    /** Runs the answer to `key`; false when none answers (or it declined by returning false). */
    run(key: K): boolean {
      const handler = handlers.get(key);
      return handler !== undefined && handler() !== false;
    },
    has: (key: K): boolean => handlers.has(key),
    /** Answers `key` while the component is mounted (none: it does not answer); the latest `handler` runs, with no re-registration each render. */
    useHandler(key: K, handler: (() => boolean | void) | undefined): void {
      const latest = useRef(handler);
      latest.current = handler;
      const active = handler !== undefined;
      useEffect(() => {
        if (!active) return;
        const run = () => latest.current?.();
        handlers.set(key, run);
        return () => {
          if (handlers.get(key) === run) handlers.delete(key);
        };
      }, [key, active]);
    },
  };
}
