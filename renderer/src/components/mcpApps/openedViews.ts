import type { McpAppFrameProps } from './McpAppFrame';

/** Views remembered at most: the newest cards a user may open beside the chat. */
const KEPT = 50;

/**
 * What the side panel needs to show an MCP App's view again: the props its
 * tool card gave the frame (the call's input and result, the caller), by
 * the call's id. Kept in memory only (a Map: ids are data): a reload drops
 * them, and the panel then asks the user to open the view from its card.
 */
const views = new Map<string, Omit<McpAppFrameProps, 'onOpenBeside'>>();

export function rememberView(callId: string, props: Omit<McpAppFrameProps, 'onOpenBeside'>): void {
  views.delete(callId);
  views.set(callId, props);
  if (views.size > KEPT) views.delete(views.keys().next().value!);
}

export function viewOf(callId: string): Omit<McpAppFrameProps, 'onOpenBeside'> | undefined {
  return views.get(callId);
}
