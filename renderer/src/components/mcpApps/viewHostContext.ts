import type { AppBridge, McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { GlobalToken } from 'antd';

/**
 * The host context a view is given at `ui/initialize` and told again when it
 * changes (`ui/notifications/host-context-changed`; docs/rules/mcp-apps.md#what-the-view-may-ask):
 * the theme and the host's colours and fonts, the language and time zone,
 * the display mode, and the container's width and maximum height.
 */

/** The tallest a view's frame grows (its size changes are held between these). */
export const MIN_VIEW_HEIGHT = 60;
export const MAX_VIEW_HEIGHT = 800;

/** The one display mode a view gets: in its card (or the side panel's), never over the page. */
export const DISPLAY_MODES: McpUiHostContext['availableDisplayModes'] = ['inline'];

export function hostContextOf(token: GlobalToken, locale: string, width: number, displayMode: McpUiHostContext['displayMode'] = 'inline'): McpUiHostContext {
  return {
    theme: document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light',
    styles: {
      variables: {
        '--color-background-primary': token.colorBgContainer,
        '--color-text-primary': token.colorText,
        '--color-text-secondary': token.colorTextSecondary,
        '--color-border-primary': token.colorBorder,
        '--font-sans': token.fontFamily,
        '--font-mono': token.fontFamilyCode,
        '--border-radius-md': `${token.borderRadius}px`,
      } as NonNullable<McpUiHostContext['styles']>['variables'],
    },
    displayMode,
    availableDisplayModes: DISPLAY_MODES,
    containerDimensions: { width, maxHeight: MAX_VIEW_HEIGHT },
    locale,
    // The user's zone, so a view shows times as the user reads them (a view could read it from Intl itself: nothing new is told).
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    platform: 'web',
  };
}

/**
 * Tells the view whenever its context changes: the frame's width (a resized
 * window or side panel) as it settles, and whatever `current()` says when
 * `changed()` is called (the theme, the language). The bridge sends only the
 * fields that differ. Returns what stops it.
 */
export function followHostContext(bridge: AppBridge, frame: HTMLIFrameElement, current: () => McpUiHostContext): { changed(): void; stop(): void } {
  let queued = false;
  const changed = () => {
    if (queued) return;
    // Once a frame: a window being dragged wider resizes the frame many times a second.
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      bridge.setHostContext(current());
    });
  };
  const observer = new ResizeObserver(changed);
  observer.observe(frame);
  return { changed, stop: () => observer.disconnect() };
}
