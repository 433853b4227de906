/// <reference lib="webworker" />
import hljs from 'highlight.js/lib/core';
import { highlightWith } from './grammars';

/** Highlights code off the page's main thread: `{ id, code, fence }` in, `{ id, html }` (or `{ id, error }`) back. */
const scope = self as unknown as DedicatedWorkerGlobalScope;
scope.onmessage = (event: MessageEvent<{ id: number; code: string; fence: string }>) => {
  const { id, code, fence } = event.data;
  highlightWith(hljs, code, fence).then(
    (html) => scope.postMessage({ id, html }),
    (error: unknown) => scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
};
