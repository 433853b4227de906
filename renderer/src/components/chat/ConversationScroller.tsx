import { ArrowDownOutlined, LoadingOutlined, QuestionCircleOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Badge, Button, Typography } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Virtualizer, type VirtualizerHandle } from 'virtua';
import type { MessageRow } from './MessageList';
import { ReviewApproval } from './reviewApproval';
import { keepMovedClicks } from './movedClicks';
import { BudgetedRow, scrolled } from './rowBudget';
import '../../i18n/load/chat';

/** Closer to the bottom than this (px), the view counts as at the bottom: it follows new output again. */
const AT_BOTTOM_PX = 48;
/** Fewer rows than this above (or below) the viewport, the next page is asked for. */
const PAGE_AHEAD_ROWS = 4;
/**
 * Or closer than this many screens to the loaded rows' top (or bottom): a
 * page comes, and its answers are parsed while the page is idle, before the
 * reader gets there, not when the top is hit. A page of older messages is
 * some fifteen screens.
 */
const PAGE_AHEAD_SCREENS = 8;
/** Frames the bottom must rest, after a move to it, before the view stops checking it (rows measured late move it). */
const SETTLE_FRAMES = 10;
/** A row's height (px) before it was measured, when its message gives no estimate. */
const ROW_ESTIMATE = 120;
/**
 * Rows with an MCP App view kept mounted off screen, the newest: a view
 * unmounted as the chat follows new rows would reload, losing its state and
 * the answers to what it asked (docs/using/mcp-apps.md); older ones go as
 * other rows do, so a long conversation stays light.
 */
const KEPT_VIEW_ROWS = 3;

export interface ScrollerProps {
  rows: MessageRow[];
  /** Above the rows (notices), and below them (the stopped banner). */
  header?: ReactNode;
  footer?: ReactNode;
  hasOlder: boolean;
  /** False after a jump to an old message: the newest are not loaded, and new ones are counted rather than shown. */
  reachesEnd: boolean;
  /** Messages of the branch after the last loaded one (shown on the jump button). */
  unloadedNewer: number;
  paging?: 'older' | 'newer';
  loadOlder(): void;
  loadNewer(): void;
  /** Loads the newest window (after a jump to an old message), to go to the latest. */
  reloadLatest(): Promise<void>;
  /** The message to bring into view and mark (a search hit), once its row is there. */
  target?: string;
  /** How many messages the user sent from this view: each send goes to the latest and follows the answer, wherever the view was. */
  sent?: number;
}

/**
 * The strip at the view's bottom (px) where the jump buttons float: a card
 * counts as in view only with its bottom (its buttons) above it, and is
 * brought there; the list's end leaves this much room so nothing at rest sits under them.
 */
const JUMP_ROOM = 64;

/** The waiting card the approval button points to, among the rows in the DOM. */
const WAITING_CARD = {
  approval: '[data-testid="confirmation-group"], [data-testid="tool-call-question"] [data-testid^="confirmation-"]',
  question: '[data-testid="elicitation-card"], [data-testid="sampling-card"]',
} as const;

/** User input that scrolls up: from then on the view stays where the user put it. */
const SCROLL_UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);
/** A scroll this soon (ms) after a wheel or a key is the user's (a smooth scroll goes on for a while after its input). */
const INPUT_SCROLLS_MS = 1000;

/** Whether a press is on the box's own scrollbar: inside its border, outside the area its content is drawn in (either side, for right-to-left). */
function onScrollbar(box: HTMLElement, event: PointerEvent): boolean {
  if (event.target !== box) return false;
  const x = event.clientX - box.getBoundingClientRect().left - box.clientLeft;
  return x < 0 || x >= box.clientWidth;
}

/**
 * A conversation's rows in a virtual list (virtua): only the rows near the
 * viewport are in the DOM, whatever the conversation's length, each
 * measured as it renders (answers differ in height, images load late).
 *
 * It follows the output (sticks to the bottom as rows arrive and grow)
 * until the user scrolls up, by wheel, keys, touch or the scrollbar, and
 * again once the user is back at the bottom. Following is decided by what
 * the user did, never by a measured distance alone: a row that grows
 * (an image that loads, an answer being written) moves the bottom away
 * without the user doing anything, and the view goes with it. While the
 * user reads above, a button goes to the latest and counts what came
 * since; a confirmation that waits for the user is announced on it.
 * Older rows are asked for as the user nears the top and are put in front
 * without moving what is shown (virtua's `shift`).
 */
export function ConversationScroller(props: ScrollerProps) {
  const { rows, header, footer, hasOlder, reachesEnd, unloadedNewer, paging, loadOlder, loadNewer, reloadLatest, target, sent = 0 } = props;
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const list = useRef<VirtualizerHandle>(null);
  /** Whether the view follows the output: the user's intent, kept out of React so a scroll never waits for a render. */
  const follow = useRef(target === undefined);
  const [following, setFollowing] = useState(follow.current);
  /** The last row when the user left the bottom: the rows after it are new to the user (older rows put in front are not). */
  const [seenKey, setSeenKey] = useState(rows.at(-1)?.key);
  /**
   * A pointer or a finger is down in the view: a click on its way, a dragged
   * scrollbar, a touch. Moves the user makes then are the user's; the page
   * makes none of its own until it is up (toBottom).
   */
  const pressed = useRef(false);
  /**
   * The user moves the view by hand: a finger on it, or the pointer on its
   * scrollbar. A move up then is the user's scrolling up; one while a card
   * is pressed is the list's own (rows above the view measured, the list
   * keeping what is shown where it is) and must not stop the following.
   */
  const dragging = useRef(false);
  /** When the user last turned the wheel or pressed a key in the view. */
  const lastInput = useRef(-Infinity);
  const lastOffset = useRef(0);
  const lastRowKey = useRef(rows.at(-1)?.key);
  lastRowKey.current = rows.at(-1)?.key;

  // Older rows put in front keep what is shown where it is; virtua wants `shift` only for such a render.
  const firstKey = rows[0]?.key;
  const previousFirst = useRef(firstKey);
  const shift = previousFirst.current !== undefined && firstKey !== previousFirst.current && rows.some((row) => row.key === previousFirst.current);
  useLayoutEffect(() => {
    previousFirst.current = firstKey;
  }, [firstKey]);

  // Rows + header + footer: the virtual list's items. The last index is the bottom.
  const items = 1 + rows.length + 1;
  const keepMounted = useMemo(() => {
    const kept: number[] = [];
    for (let i = rows.length - 1; i >= 0 && kept.length < KEPT_VIEW_ROWS; i--) if (rows[i]!.liveView) kept.unshift(1 + i);
    return kept;
  }, [rows]);
  // Written to the scroller, not by virtua's scrollToIndex: that one scrolls to its target again on each measurement until
  // sizes rest, whatever the user does meanwhile, so boxes filling in after a wheel up took the view back to the bottom.
  // Here rows measured after the write (their sizes were estimates) move the bottom, and it is written again each frame
  // until it rests, only while the view follows: the user's scrolling up ends it at once.
  // Never under a pressed pointer: a button that moved between press and release gets no click (the browser sends it to
  // what is under both), so a click on a card while an answer streams in was lost. The view goes down once it is up.
  const settling = useRef(0);
  const toBottom = useCallback(() => {
    const box = scroller.current;
    if (!box) return;
    if (!pressed.current) box.scrollTop = box.scrollHeight;
    let quiet = 0;
    const again = () => {
      if (!follow.current) return;
      if (pressed.current) quiet = 0;
      else if (box.scrollHeight - box.scrollTop - box.clientHeight > 1) ((box.scrollTop = box.scrollHeight), (quiet = 0));
      else quiet++;
      if (quiet < SETTLE_FRAMES) settling.current = requestAnimationFrame(again);
    };
    cancelAnimationFrame(settling.current);
    settling.current = requestAnimationFrame(again);
  }, []);
  useEffect(() => () => cancelAnimationFrame(settling.current), []);

  /** Stops keeping the waiting card in place after a jump to it (toConfirmation). */
  const placing = useRef<() => void>(undefined);
  const stopPlacing = useCallback(() => {
    placing.current?.();
    placing.current = undefined;
  }, []);

  const setFollow = useCallback(
    (value: boolean) => {
      // Following the output again: the view goes down, no card is kept in place any more.
      if (value) stopPlacing();
      if (follow.current === value) return;
      follow.current = value;
      setFollowing(value);
      if (!value) setSeenKey(lastRowKey.current);
    },
    [stopPlacing],
  );

  // New rows (a message, a streamed answer, a confirmation): at the bottom while following.
  const lastKey = rows.at(-1)?.key;
  useLayoutEffect(() => {
    if (follow.current && reachesEnd) toBottom();
  }, [lastKey, items, reachesEnd, toBottom]);

  // The row to show (a search hit): brought to the middle once it is loaded; the view then stays with it.
  const targetIndex = target === undefined ? -1 : rows.findIndex((row) => row.messageId === target);
  const targetShown = useRef<string>(undefined);
  useLayoutEffect(() => {
    // Once per target: rows put in front later move its index, and the view stays where the user scrolls it.
    if (targetIndex === -1 || targetShown.current === target) return;
    targetShown.current = target;
    setFollow(false);
    const show = () => list.current?.scrollToIndex(1 + targetIndex, { align: 'center' });
    show();
    // Again once the rows around it were measured (their sizes were estimates), so it ends in the middle.
    let frame = requestAnimationFrame(() => (show(), (frame = requestAnimationFrame(show))));
    return () => cancelAnimationFrame(frame);
  }, [target, targetIndex, setFollow]);

  const nearEdges = useCallback(
    (offset: number) => {
      const handle = list.current;
      if (!handle) return;
      const ahead = PAGE_AHEAD_SCREENS * handle.viewportSize;
      const bottom = offset + handle.viewportSize;
      if (hasOlder && paging === undefined && (offset <= ahead || handle.findItemIndex(offset) <= PAGE_AHEAD_ROWS)) loadOlder();
      if (!reachesEnd && paging === undefined && (handle.scrollSize - bottom <= ahead || handle.findItemIndex(bottom) >= items - 1 - PAGE_AHEAD_ROWS)) loadNewer();
    },
    [hasOlder, reachesEnd, paging, items, loadOlder, loadNewer],
  );

  const onScroll = useCallback(
    (offset: number) => {
      const handle = list.current;
      const box = scroller.current;
      if (!handle || !box) return;
      const distance = handle.scrollSize - offset - handle.viewportSize;
      if (distance <= AT_BOTTOM_PX && reachesEnd) setFollow(true);
      else if (dragging.current && offset < lastOffset.current) setFollow(false);
      lastOffset.current = offset;
      nearEdges(offset);
    },
    [reachesEnd, setFollow, nearEdges],
  );

  // Rows that grew or were measured (an image loaded, an answer streamed): the bottom moved, and a following view goes with it.
  const onResize = useCallback(() => {
    const handle = list.current;
    if (!handle) return;
    if (follow.current && reachesEnd) toBottom();
    // Rows that do not fill the view give nothing to scroll by: the older ones are asked for at once.
    else nearEdges(handle.scrollOffset);
    if (handle.scrollSize <= handle.viewportSize + 1) nearEdges(0);
  }, [reachesEnd, toBottom, nearEdges]);

  // The user's own scrolling up, from any input.
  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    // Any move of the user's ends the keeping of a card in place (a press too: nothing moves under a pressed pointer).
    const onWheel = (event: WheelEvent) => {
      stopPlacing();
      lastInput.current = performance.now();
      if (event.deltaY < 0) setFollow(false);
    };
    const onKey = (event: KeyboardEvent) => {
      stopPlacing();
      lastInput.current = performance.now();
      if (SCROLL_UP_KEYS.has(event.key)) setFollow(false);
    };
    // Before the list renders for this scroll (a capture listener runs first at its target): rows that mount in a fling wait as boxes.
    const onMove = () => scrolled(box.scrollTop, dragging.current || performance.now() - lastInput.current < INPUT_SCROLLS_MS);
    const onPress = (event: PointerEvent) => {
      stopPlacing();
      pressed.current = true;
      dragging.current = onScrollbar(box, event);
    };
    const onTouch = () => (stopPlacing(), (pressed.current = true), (dragging.current = true));
    const end = () => ((pressed.current = false), (dragging.current = false));
    box.addEventListener('scroll', onMove, { capture: true, passive: true });
    box.addEventListener('wheel', onWheel, { passive: true });
    box.addEventListener('keydown', onKey);
    box.addEventListener('pointerdown', onPress);
    box.addEventListener('touchstart', onTouch, { passive: true });
    // Every way a press ends (a cancelled one too): a press that never ended would keep the view from following.
    const ends = ['pointerup', 'pointercancel', 'touchend', 'touchcancel'] as const;
    for (const type of ends) window.addEventListener(type, end);
    // The page never moves the view under a press (toBottom), but rows do move by themselves (a row above measured
    // late, a card that grows): a button pressed and released where it was is clicked even if it moved meanwhile.
    const stopKeeping = keepMovedClicks(box);
    return () => {
      stopKeeping();
      box.removeEventListener('scroll', onMove, { capture: true });
      box.removeEventListener('wheel', onWheel);
      box.removeEventListener('keydown', onKey);
      box.removeEventListener('pointerdown', onPress);
      box.removeEventListener('touchstart', onTouch);
      for (const type of ends) window.removeEventListener(type, end);
    };
  }, [setFollow, stopPlacing]);

  const confirmationIndex = rows.findIndex((row) => row.confirmation);
  // What waits for the user: a confirmation first, else a server's question (the same jump brings either into view).
  const waiting = confirmationIndex !== -1 ? 'approval' : rows.some((row) => row.question) ? 'question' : undefined;
  const waitingIndex = waiting === 'question' ? rows.findIndex((row) => row.question) : confirmationIndex;
  // The whole card in view, its bottom above the jump buttons: a button over its "Approve for" row hid what it pointed to.
  // Not virtua's scrollToIndex: that one writes the row's end again on each measurement for a while after (150 ms of
  // wall clock), so a row measured late on a busy machine put the row's end back at the view's end and the card (above
  // the answer's footer) under the buttons, after it had been placed. Here the view goes to the row by the list's
  // offsets until the card mounts, and the card is then kept placed as rows mount and are measured (a late row, a card
  // that grows under its question) until the user moves the view, follows the output again, or nothing waits.
  const waitingAt = useRef(waitingIndex);
  waitingAt.current = waitingIndex;
  const toConfirmation = useCallback(() => {
    const box = scroller.current;
    const handle = list.current;
    if (waitingIndex === -1 || !box || !handle) return;
    setFollow(false);
    stopPlacing();
    const selector = WAITING_CARD[waiting ?? 'approval'];
    let frame = 0;
    const resized = new ResizeObserver(() => place());
    const place = () => {
      const card = box.querySelector(selector);
      if (!card) {
        // Not mounted yet: the row's end to the view's end (by estimates for rows not measured); it mounts there.
        const at = 1 + waitingAt.current;
        box.scrollTop = handle.getItemOffset(at) + handle.getItemSize(at) - handle.viewportSize;
        frame = requestAnimationFrame(place);
        return;
      }
      const a = card.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      // A card taller than the view shows its top: its bottom comes into view as the user reads down.
      const by = Math.min(a.bottom - (b.bottom - JUMP_ROOM), a.top - b.top);
      if (Math.abs(by) >= 1) box.scrollTop += by;
      // Anything that moves it moves the list's content or resizes the card: both are watched (observing again is a no-op).
      for (const child of box.children) resized.observe(child);
      resized.observe(card);
    };
    placing.current = () => (cancelAnimationFrame(frame), resized.disconnect());
    place();
  }, [waitingIndex, waiting, setFollow, stopPlacing]);
  // Nothing waits any more (answered, expired): the card is gone, the view stays where it is.
  useEffect(() => {
    if (waitingIndex === -1) stopPlacing();
  }, [waitingIndex, stopPlacing]);
  useEffect(() => stopPlacing, [stopPlacing]);

  const toLatest = async () => {
    setFollow(true);
    // The newest rows, when they are not loaded: they follow at the bottom as they arrive.
    if (!reachesEnd) await reloadLatest();
    else toBottom();
  };

  // A send: the user wants to see the message and what answers it, as in every chat, even when reading far above.
  const sentSeen = useRef(sent);
  useEffect(() => {
    if (sentSeen.current === sent) return;
    sentSeen.current = sent;
    void toLatest();
  });

  // Is the waiting confirmation in view? Checked as the view moves; announced on the button when it is not.
  const [confirmationShown, setConfirmationShown] = useState(true);
  useEffect(() => {
    const box = scroller.current;
    if (waitingIndex === -1 || !box) return setConfirmationShown(true);
    const check = () => {
      const card = box.querySelector(WAITING_CARD[waiting ?? 'approval']);
      if (!card) return setConfirmationShown(false);
      const a = card.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      // In view: its buttons (at its bottom) clear of the jump button, or, taller than the view, filling it; or whole in a
      // view that cannot go further down (the card ends the list), where the jump would move nothing and only cover it.
      const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight <= 1;
      // (Within a pixel: a card scrolled to the view's top sits a fraction of one below it.)
      setConfirmationShown((a.bottom > b.top && a.bottom <= b.bottom - JUMP_ROOM + 1) || (a.top <= b.top + 1 && a.bottom >= b.bottom - 1) || (atEnd && a.top >= b.top - 1 && a.bottom <= b.bottom + 1));
    };
    check();
    box.addEventListener('scroll', check, { passive: true });
    // Rows measured after they mount move the card without a scroll (a call's card grows under its question).
    const resized = new ResizeObserver(check);
    for (const child of box.children) resized.observe(child);
    return () => {
      box.removeEventListener('scroll', check);
      resized.disconnect();
    };
  }, [waitingIndex, waiting, rows]);

  const seenAt = seenKey === undefined ? -1 : rows.findIndex((row) => row.key === seenKey);
  const newItems = (seenAt === -1 ? 0 : rows.length - 1 - seenAt) + unloadedNewer;
  const approvalHidden = waitingIndex !== -1 && !confirmationShown;

  return (
    <ReviewApproval.Provider value={confirmationIndex === -1 ? undefined : toConfirmation}>
      <div className="chat-scroll-frame">
        <div className="chat-scroll chat-virtual" ref={scroller} tabIndex={-1} data-testid="chat-scroll" data-following={following}>
          <Virtualizer ref={list} scrollRef={scroller} shift={shift} keepMounted={keepMounted} onScroll={onScroll} onResize={onResize}>
            <div key="chat-header" className="chat-row chat-row-edge">
              {header}
            </div>
            {rows.map((row, index) => (
              <div key={row.key} className={row.messageId !== undefined && row.messageId === target ? 'chat-row chat-row-target' : 'chat-row'} data-row={row.key}>
                {row.messageId === undefined || row.confirmation ? (
                  row.node
                ) : (
                  <BudgetedRow id={row.messageId} estimate={row.estimate ?? ROW_ESTIMATE} eager={row.messageId === target || (following && index === rows.length - 1)}>
                    {row.node}
                  </BudgetedRow>
                )}
              </div>
            ))}
            <div key="chat-footer" className="chat-row chat-row-edge" style={{ paddingBottom: JUMP_ROOM }}>
              {footer}
            </div>
          </Virtualizer>
        </div>
        {paging && (
          <div className={`chat-paging chat-paging-${paging}`} data-testid="chat-paging">
            <LoadingOutlined /> <Typography.Text type="secondary">{t(paging === 'older' ? 'chat.scroll.older' : 'chat.scroll.newer')}</Typography.Text>
          </div>
        )}
        {approvalHidden ? (
          <Button
            className="chat-jump"
            type="primary"
            icon={waiting === 'question' ? <QuestionCircleOutlined /> : <SafetyCertificateOutlined />}
            onClick={toConfirmation}
            data-testid="chat-jump-approval"
            data-waiting={waiting}
          >
            {t(waiting === 'question' ? 'chat.scroll.question' : 'chat.scroll.approval')}
          </Button>
        ) : (
          (!following || !reachesEnd) && (
            <Badge className="chat-jump" count={newItems} overflowCount={99} data-testid="chat-jump-count">
              <Button
                shape="round"
                icon={<ArrowDownOutlined />}
                onClick={() => void toLatest()}
                data-testid="chat-jump-latest"
                data-count={newItems}
                title={newItems ? t('chat.scroll.newItems', { count: newItems }) : undefined}
              >
                {t('chat.scroll.latest')}
              </Button>
            </Badge>
          )
        )}
      </div>
    </ReviewApproval.Provider>
  );
}
