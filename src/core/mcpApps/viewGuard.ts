import { VIEW_ERRORS } from './viewErrors.js';

/**
 * The script every MCP App view runs first (docs/rules/mcp-apps.md#webrtc),
 * whichever face serves it: WebRTC is taken out of the view's page.
 *
 * A view's CSP says which origins it may reach (`connect-src 'none'` by
 * default), but no CSP covers WebRTC: an `RTCPeerConnection` sends STUN
 * and TURN to any ICE server, and connectivity checks to any candidate,
 * whatever the policy says. Chromium implements neither CSP's `webrtc`
 * directive nor a permission for it, and its `Connection-Allowlist` header
 * (with `webrtc=block`) stops ICE servers but, in Chromium 156, not checks
 * to remote candidates. So the view's own page loses the constructors
 * before any of its scripts runs, and a frame that would run script of the
 * view's own (`srcdoc`, `about:`, `javascript:`, `data:`, `blob:`: realms
 * this script never ran in) is removed as it is added, in the document or
 * in a shadow root the view attaches. A frame that loads a web page keeps
 * its place: the CSP's `frame-src` decides those, as every other origin.
 *
 * What it cannot reach is said on the rules page: a frame inside a shadow
 * root the parser builds from markup (`<template shadowrootmode>`) is
 * hidden from it.
 */
const GUARD = `(() => {
  for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection']) delete window[name];
  const loadsWebPage = (frame) => !frame.hasAttribute('srcdoc') && /^https?:/i.test(frame.src);
  const check = (node) => {
    if (node.nodeType !== 1) return;
    for (const element of [node, ...node.querySelectorAll('iframe, frame')]) {
      if ((element.localName === 'iframe' || element.localName === 'frame') && !loadsWebPage(element)) element.remove();
    }
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes') check(record.target);
      else record.addedNodes.forEach(check);
    }
  });
  const watch = (root) => observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['src', 'srcdoc'] });
  watch(document);
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = attachShadow.call(this, init);
    watch(root);
    return root;
  };
})();`;

/**
 * A doctype at the very start (after an optional BOM and HTML's spaces): the
 * guard goes after it, since content before a doctype puts the page in
 * quirks mode. Nothing in a doctype runs, and a `>` ends one wherever it
 * stands, quoted or not. Comments are not skipped: HTML ends `<!-->` at
 * once, so a reading that skipped "comments" could put the guard after a
 * script of the view's.
 */
const DOCTYPE = /^\uFEFF?[\t\n\f\r ]*<!doctype[^>]*>/i;

/** The view's HTML with the guard as its first script, and the error reporter (viewErrors.ts) next. */
export function guardedViewHtml(html: string): string {
  const doctype = DOCTYPE.exec(html)?.[0] ?? '';
  return `${doctype}<script>${GUARD}</script><script>${VIEW_ERRORS}</script>${html.slice(doctype.length)}`;
}
