/**
 * The Content-Security-Policy an MCP App view runs under
 * (docs/rules/mcp-apps.md#the-frames-csp): the spec's default for a view
 * in its sandbox (its own origin, inline script, eval, no network), widened
 * only by the origins the resource's `_meta.ui.csp` declares, and only by
 * origins written plainly (https or wss, or a loopback address); a
 * wildcard, a scheme alone, a keyword or anything that could end the
 * directive is dropped and named. It never grants more than it declares,
 * and never an origin of the host's own.
 */

export interface DeclaredCsp {
  connectDomains?: unknown;
  resourceDomains?: unknown;
  frameDomains?: unknown;
  baseUriDomains?: unknown;
}

/** Where views run: who frames them, and which origins are the host's own. */
export interface ViewPlace {
  /** The origins of the page that frames a view's sandbox (the renderer's, in each spelling it answers to). */
  framers: readonly string[];
  /** Every origin of the host (the framers and the server of the views' sandboxes): no declared list reaches one. */
  hostOrigins: readonly string[];
}

export interface ViewCsp {
  /** The header's value. */
  policy: string;
  /** The declared entries left out, with the list they came from. */
  dropped: string[];
}

/** Origins kept per list: a view that needs more asks for too much. */
const MAX_ORIGINS = 32;
const ORIGIN = /^(?<scheme>https|wss):\/\/(?<host>(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*)(:(?<port>\d{1,5}))?$/;
const LOOPBACK = /^(?<scheme>http|ws):\/\/(?<host>localhost|127\.0\.0\.1)(:(?<port>\d{1,5}))?$/;

/** Names that reach this machine whatever the page: `*.localhost` resolves to loopback in browsers. */
const isLoopbackName = (host: string) => host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]';

/**
 * A port as a browser reaches it: 80 and 443 count as one (no port), since
 * behind a proxy the scheme `chatos serve` sees is not the one the browser used.
 */
const portOf = (port: string | undefined) => (port === undefined || port === '' || port === '80' || port === '443' ? 'default' : port);

/**
 * Whether a declared origin reaches the host that frames the view: its own
 * origin, under any loopback spelling (`localhost`, `127.0.0.1`, `[::1]`)
 * and scheme (`http`, `ws`, …) with its port, or a wildcard that covers its
 * name. A view given the host would reach the host's API and pages from
 * inside its frame (docs/rules/mcp-apps.md#the-frames-csp).
 */
function reachesHost(declared: { scheme: string; host: string; port?: string }, host: URL): boolean {
  if (portOf(declared.port) !== portOf(host.port)) return false;
  if (isLoopbackName(host.hostname)) return isLoopbackName(declared.host);
  const covers = declared.host.startsWith('*.') ? host.hostname.endsWith(declared.host.slice(1)) : declared.host === host.hostname;
  const family = (scheme: string) => scheme.replace(/^ws/, 'http');
  return covers && family(declared.scheme) === family(host.protocol.slice(0, -1));
}

function originsOf(list: unknown, name: string, hosts: readonly URL[], dropped: string[]): string[] {
  if (!Array.isArray(list)) return [];
  const kept: string[] = [];
  for (const entry of list.slice(0, 1000)) {
    const text = typeof entry === 'string' ? entry.trim().toLowerCase().replace(/\/$/, '') : '';
    const plain = (ORIGIN.exec(text) ?? LOOPBACK.exec(text))?.groups as { scheme: string; host: string; port?: string } | undefined;
    if (plain && hosts.some((host) => reachesHost(plain, host))) dropped.push(`${name}: ${JSON.stringify(entry).slice(0, 100)} (this host)`);
    else if (plain && kept.length < MAX_ORIGINS) {
      if (!kept.includes(text)) kept.push(text);
    } else dropped.push(`${name}: ${JSON.stringify(entry).slice(0, 100)}`);
  }
  return kept;
}

/**
 * The sandbox flags of a view and of the proxy that frames it (docs/rules/mcp-apps.md#the-frame):
 * an origin of its own (the view's sandbox, never the host's), scripts, and forms a script handles;
 * no popups, no top navigation.
 */
export const VIEW_SANDBOX = 'allow-scripts allow-same-origin allow-forms';

/**
 * The view's policy. Its sandbox's origin ('self') and the framers alone may
 * frame it, and no list reaches a host origin. Script may eval: the view
 * already runs any inline script it carries, in an origin of its own, so
 * eval gives it nothing more, and libraries such as three.js need it (the
 * reference host allows it too).
 */
export function viewCsp(declared: DeclaredCsp | undefined, place: ViewPlace): ViewCsp {
  const dropped: string[] = [];
  const hosts = place.hostOrigins.map((origin) => new URL(origin));
  const connect = originsOf(declared?.connectDomains, 'connectDomains', hosts, dropped);
  const resource = originsOf(declared?.resourceDomains, 'resourceDomains', hosts, dropped);
  const frame = originsOf(declared?.frameDomains, 'frameDomains', hosts, dropped);
  const base = originsOf(declared?.baseUriDomains, 'baseUriDomains', hosts, dropped);
  const list = (origins: string[], ...extra: string[]) => [...extra, ...origins].join(' ') || "'none'";
  const policy = [
    "default-src 'none'",
    `script-src ${list(resource, "'self'", "'unsafe-inline'", "'unsafe-eval'", "'wasm-unsafe-eval'", 'blob:', 'data:')}`,
    `style-src ${list(resource, "'self'", "'unsafe-inline'", 'blob:', 'data:')}`,
    `img-src ${list(resource, "'self'", 'data:', 'blob:')}`,
    `font-src ${list(resource, "'self'", 'data:', 'blob:')}`,
    `media-src ${list(resource, "'self'", 'data:', 'blob:')}`,
    `worker-src ${list(resource, "'self'", 'blob:')}`,
    `connect-src ${list(connect)}`,
    `frame-src ${list(frame)}`,
    `base-uri ${base.length ? list(base) : "'self'"}`,
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors ${["'self'", ...place.framers].join(' ')}`,
    // Its sandbox's origin even when the view's url is opened outside its frame.
    `sandbox ${VIEW_SANDBOX}`,
  ].join('; ');
  return { policy, dropped };
}
