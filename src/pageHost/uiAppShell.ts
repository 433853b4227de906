import { pageThemeCss } from '../shared/pageTheme.js';

/**
 * The document a UI app's page runs in: an empty frame with a container,
 * and one external script (the bridge, `uiAppBridge.ts`) that builds `host`,
 * imports the page module and mounts it. No inline script, so the CSP can
 * allow scripts from the app's own base url and nothing else. Its style
 * carries the theme's tokens as CSS variables (shared/pageTheme.ts).
 */

export interface UiAppShellOptions {
  /** The page module's url (absolute, or relative to the shell's url). */
  moduleUrl: string;
  surface: 'full' | 'compact';
  /** Put on the script tag when the face's CSP allows scripts by nonce. */
  nonce?: string;
  /** Where the bridge script is; default `__bridge.js` next to the shell. */
  bridgeUrl?: string;
}

const escapeAttribute = (value: string): string => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The shell html; the bridge reads `moduleUrl` and `surface` from its own script tag. */
export function uiAppShellHtml(options: UiAppShellOptions): string {
  const nonce = options.nonce ? ` nonce="${escapeAttribute(options.nonce)}"` : '';
  return `<!doctype html>
<html lang="en" data-surface="${escapeAttribute(options.surface)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>ChatOS app</title>
<style${nonce}>
html, body { margin: 0; height: 100%; }
:root[data-theme="dark"] { color-scheme: dark; }
:root[data-theme="light"] { color-scheme: light; }
${pageThemeCss()}
#chatos-app { position: fixed; inset: 0; overflow: auto; }
.chatos-app-error { margin: 16px; padding: 12px 16px; border: 1px solid #ffccc7; border-radius: 6px; background: #fff2f0; color: #a8071a; font: 13px/1.5 system-ui, sans-serif; white-space: pre-wrap; overflow-wrap: anywhere; }
:root[data-theme="dark"] .chatos-app-error { border-color: #58181c; background: #2a1215; color: #ff7875; }
</style>
</head>
<body>
<div id="chatos-app"></div>
<script src="${escapeAttribute(options.bridgeUrl ?? '__bridge.js')}" data-module-url="${escapeAttribute(options.moduleUrl)}" data-surface="${escapeAttribute(options.surface)}"${nonce}></script>
</body>
</html>
`;
}

export interface UiAppShellCspOptions {
  /** The app's own base url (absolute, ending in `/`): its scripts, styles, images and fonts come from here only. */
  baseUrl: string;
  /** The origin of the window that may frame the page (the renderer's). */
  hostOrigin: string;
}

/**
 * The CSP of the shell and of every file under an app's base url.
 * `connect-src 'none'`: a page reaches nothing but the bridge. `sandbox
 * allow-scripts` keeps a page on an opaque origin even when its url is
 * opened outside the sandboxed frame (so it can never act as the renderer).
 */
export function uiAppShellCsp(options: UiAppShellCspOptions): string {
  const base = options.baseUrl;
  return [
    "default-src 'none'",
    `script-src ${base}`,
    `style-src 'unsafe-inline' ${base}`,
    `img-src ${base} data: blob:`,
    `font-src ${base}`,
    "connect-src 'none'",
    `frame-ancestors ${options.hostOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    'sandbox allow-scripts',
  ].join('; ');
}
