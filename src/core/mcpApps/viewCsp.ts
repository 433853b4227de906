/**
 * The Content-Security-Policy an MCP App view runs under
 * (docs/rules/mcp-apps.md#the-frames-csp): the spec's restrictive default,
 * widened only by the origins the resource's `_meta.ui.csp` declares, and
 * only by origins written plainly (https or wss, or a loopback address);
 * a wildcard, a scheme alone, a keyword or anything that could end the
 * directive is dropped and named. It never grants more than it declares,
 * and never the host's own origin.
 */

export interface DeclaredCsp {
  connectDomains?: unknown;
  resourceDomains?: unknown;
  frameDomains?: unknown;
  baseUriDomains?: unknown;
}

export interface ViewCsp {
  /** The header's value. */
  policy: string;
  /** The declared entries left out, with the list they came from. */
  dropped: string[];
}

/** Origins kept per list: a view that needs more asks for too much. */
const MAX_ORIGINS = 32;
const ORIGIN = /^(https|wss):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/;
const LOOPBACK = /^(http|ws):\/\/(localhost|127\.0\.0\.1)(:\d{1,5})?$/;

function originsOf(list: unknown, name: string, dropped: string[]): string[] {
  if (!Array.isArray(list)) return [];
  const kept: string[] = [];
  for (const entry of list.slice(0, 1000)) {
    const text = typeof entry === 'string' ? entry.trim().toLowerCase().replace(/\/$/, '') : '';
    if ((ORIGIN.test(text) || LOOPBACK.test(text)) && kept.length < MAX_ORIGINS) {
      if (!kept.includes(text)) kept.push(text);
    } else dropped.push(`${name}: ${JSON.stringify(entry).slice(0, 100)}`);
  }
  return kept;
}

/** The view's policy; `hostOrigin` alone may frame it. */
export function viewCsp(declared: DeclaredCsp | undefined, hostOrigin: string): ViewCsp {
  const dropped: string[] = [];
  const connect = originsOf(declared?.connectDomains, 'connectDomains', dropped);
  const resource = originsOf(declared?.resourceDomains, 'resourceDomains', dropped);
  const frame = originsOf(declared?.frameDomains, 'frameDomains', dropped);
  const base = originsOf(declared?.baseUriDomains, 'baseUriDomains', dropped);
  const list = (origins: string[], ...extra: string[]) => [...extra, ...origins].join(' ') || "'none'";
  const policy = [
    "default-src 'none'",
    `script-src ${list(resource, "'unsafe-inline'")}`,
    `style-src ${list(resource, "'unsafe-inline'")}`,
    `img-src ${list(resource, 'data:', 'blob:')}`,
    `font-src ${list(resource, 'data:')}`,
    `media-src ${list(resource, 'data:', 'blob:')}`,
    `connect-src ${list(connect)}`,
    `frame-src ${list(frame)}`,
    `base-uri ${list(base)}`,
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors ${hostOrigin}`,
    // An opaque origin even when the view's url is opened outside its sandboxed frame.
    'sandbox allow-scripts',
  ].join('; ');
  return { policy, dropped };
}
