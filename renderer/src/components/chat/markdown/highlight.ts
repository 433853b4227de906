import { grammarOf, highlightWith } from './grammars';
import { LruCache } from './lruCache';

/**
 * Code highlighting, loaded only when a message shows a fenced code block.
 * It runs in a worker: compiling a grammar the first time takes tens of
 * milliseconds, which on the page would stall a streaming answer. Where no
 * worker can start, the page highlights itself.
 */

type Reply = { id: number; html?: string; error?: string };

let worker: Worker | undefined | null;
let nextId = 1;
const waiting = new Map<number, { resolve(html: string | undefined): void; reject(error: Error): void }>();

function startWorker(): Worker | null {
  try {
    const started = new Worker(new URL('./highlightWorker.ts', import.meta.url), { type: 'module', name: 'chatos-highlight' });
    started.onmessage = (event: MessageEvent<Reply>) => {
      const call = waiting.get(event.data.id);
      if (!call) return;
      waiting.delete(event.data.id);
      if (event.data.error !== undefined) call.reject(new Error(event.data.error));
      else call.resolve(event.data.html);
    };
    started.onerror = () => {
      // The worker could not load (a CSP or protocol that refuses it): the page highlights from now on.
      worker = null;
      for (const [id, call] of waiting) {
        waiting.delete(id);
        call.reject(new Error('the highlight worker failed'));
      }
    };
    return started;
  } catch {
    return null;
  }
}

let local: Promise<import('highlight.js').HLJSApi> | undefined;
function highlightHere(code: string, fence: string): Promise<string | undefined> {
  local ??= import('highlight.js/lib/core').then((m) => m.default);
  return local.then((hljs) => highlightWith(hljs, code, fence));
}

/** Code highlighted before, by fence and text: a code block that mounts again (scrolled back into view) shows it at once. */
const done = new LruCache<string, string>(8_000_000, (html) => html.length);
const keyOf = (code: string, fence: string) => `${fence}\u0000${code}`;

/** The code as this page highlighted it before, if it did. */
export function highlightedBefore(code: string, fence: string): string | undefined {
  return done.get(keyOf(code, fence));
}

/** The code as highlighted HTML (highlight.js escapes the text itself), or undefined for a language it does not know. */
export async function highlight(code: string, fence: string): Promise<string | undefined> {
  const html = await highlightOnce(code, fence);
  if (html !== undefined) done.set(keyOf(code, fence), html);
  return html;
}

async function highlightOnce(code: string, fence: string): Promise<string | undefined> {
  if (!grammarOf(fence)) return undefined;
  if (worker === undefined) worker = startWorker();
  const running = worker;
  if (!running) return highlightHere(code, fence);
  const id = nextId++;
  try {
    return await new Promise<string | undefined>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      running.postMessage({ id, code, fence });
    });
  } catch {
    return highlightHere(code, fence);
  }
}
