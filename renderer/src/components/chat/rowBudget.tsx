import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';

/**
 * Rendering time (ms) the rows that mount may take in one task. A wheel or
 * a dragged scrollbar brings a screen of rows into view in one frame: each
 * answer is a few hundred elements to build and lay out, and on a busy
 * machine five of them make a frame of 50–150 ms. Rows past the budget
 * show a box of their size and come once the view stands still, the
 * nearest first, a few per frame; rows the user flings past never render.
 */
const TASK_BUDGET_MS = 6;
/** Rows the next frame completes at most, whatever time is left: their layout comes after, in the same frame. */
const ROWS_PER_FRAME = 2;
/** A view moving faster than this (px per ms, some three screens a second) is flung, not read: rows that come into view wait as boxes. */
const FLUNG_PX_PER_MS = 3;
const FLING_WINDOW_MS = 100;
/** After a fling, the view must have slowed for this long (ms) before waiting rows render: while it flies they would scroll away unseen. */
const SETTLE_MS = 120;
/** Heights kept (rows measured once keep their size as a box), a few conversations' worth. */
const HEIGHTS_KEPT = 20_000;

let taskStart: number | undefined;
/** When the view last moved fast, and where it was the scroll event before. */
let lastFlung = -Infinity;
let lastScroll = { at: -Infinity, offset: 0 };

/** Whether a row that mounts now may render in full: the first of a task always may, the others while the task's budget lasts. */
function claim(): boolean {
  const now = performance.now();
  if (now - lastFlung < SETTLE_MS) return false;
  if (taskStart === undefined) {
    taskStart = now;
    // The next task starts a new budget (a frame, with its scroll events, is one task).
    setTimeout(() => (taskStart = undefined), 0);
    return true;
  }
  return now - taskStart < TASK_BUDGET_MS;
}

/** Rows waiting to render, the latest mounted first (scrolling up or down, the latest is the one coming into view). */
const waiting: (() => void)[] = [];
let frame = 0;
let settleTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * The view moved to `offset` (a scroll event): flung by the user, the rows
 * coming into view wait until it slows. Only the user flings (`byUser`: a
 * wheel, keys, a dragged thumb, touch): the page's own moves (to the bottom
 * as output arrives, the browser keeping the offset within a list that
 * shrank) are not, or a finished answer could wait as a box while each of
 * its renders moved the view and so made it wait again.
 */
export function scrolled(offset: number, byUser: boolean): void {
  const now = performance.now();
  // Over at most FLING_WINDOW_MS: a jump of screens in one event after a pause is a fling too (a wheel without smooth scrolling, a dragged thumb).
  if (byUser && Math.abs(offset - lastScroll.offset) / Math.min(FLING_WINDOW_MS, Math.max(1, now - lastScroll.at)) > FLUNG_PX_PER_MS) lastFlung = now;
  lastScroll = { at: now, offset };
}

function schedule() {
  if (frame || settleTimer !== undefined || !waiting.length) return;
  const still = performance.now() - lastFlung;
  if (still >= SETTLE_MS) frame = requestAnimationFrame(pump);
  else settleTimer = setTimeout(() => ((settleTimer = undefined), schedule()), SETTLE_MS - still);
}

function wait(grant: () => void): () => void {
  waiting.push(grant);
  schedule();
  return () => {
    const at = waiting.indexOf(grant);
    if (at !== -1) waiting.splice(at, 1);
  };
}

function pump() {
  frame = 0;
  if (performance.now() - lastFlung < SETTLE_MS) return schedule();
  const started = performance.now();
  for (let done = 0; waiting.length && done < ROWS_PER_FRAME && (done === 0 || performance.now() - started < TASK_BUDGET_MS); done++) {
    const grant = waiting.pop()!;
    flushSync(grant);
  }
  schedule();
}

/** Measured heights by message id: a row seen once waits as a box of its own size, so nothing moves when it renders. */
const heights = new Map<string, number>();
let observer: ResizeObserver | undefined;
const observed = new WeakMap<Element, string>();

function remember(id: string, height: number) {
  heights.delete(id);
  heights.set(id, height);
  if (heights.size > HEIGHTS_KEPT) heights.delete(heights.keys().next().value!);
}

function observe(element: Element, id: string): () => void {
  observer ??= new ResizeObserver((entries) => {
    for (const entry of entries) {
      const key = observed.get(entry.target);
      const height = entry.borderBoxSize[0]?.blockSize;
      if (key !== undefined && height) remember(key, height);
    }
  });
  observed.set(element, id);
  observer.observe(element);
  return () => observer?.unobserve(element);
}

/**
 * A message's row under the frame budget (see TASK_BUDGET_MS): in full when
 * the task has time for it, else a box as high as the row was when last
 * shown (or `estimate`) until a later frame renders it. `eager` rows (a
 * search hit, the newest row while the view follows the output) always
 * render at once.
 */
export function BudgetedRow({ id, estimate, eager, children }: { id: string; estimate: number; eager: boolean; children: ReactNode }) {
  const [ready, setReady] = useState(() => eager || claim());
  const box = useRef<HTMLDivElement>(null);
  const show = ready || eager;
  // Shown once, shown while mounted: the newest row, shown at once while the view followed, stays when the user scrolls up.
  useLayoutEffect(() => {
    if (show && !ready) setReady(true);
  }, [show, ready]);
  useLayoutEffect(() => (show ? undefined : wait(() => setReady(true))), [show]);
  useLayoutEffect(() => (show && box.current ? observe(box.current, id) : undefined), [show, id]);
  if (!show) return <div className="chat-row-pending" data-pending-message={id} style={{ height: heights.get(id) ?? estimate }} />;
  return (
    <div ref={box} className="chat-row-body">
      {children}
    </div>
  );
}
