/**
 * A server's url (elicitation/create, url mode) checked before anyone sees
 * it (docs/using/elicitation.md#what-is-refused): a web page only (`https:`, or `http:` on
 * this machine), no user name or password in it, bounded. The domain a face
 * shows is the host the browser will go to, as the browser writes it:
 * a non-ASCII name in punycode (`xn--…`), which is said to be a possible
 * look-alike of another name.
 */

export const MAX_URL_CHARS = 2_048;

export type UrlCheck = { ok: true; url: string; domain: string; lookAlike: boolean } | { ok: false; reason: string };

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

export function checkElicitationUrl(url: unknown): UrlCheck {
  if (typeof url !== 'string') return { ok: false, reason: '"url" must be a string' };
  if (url.length > MAX_URL_CHARS) return { ok: false, reason: `the url is ${url.length.toLocaleString('en')} characters; at most ${MAX_URL_CHARS.toLocaleString('en')}` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'the url is not a valid url' };
  }
  const scheme = parsed.protocol;
  if (scheme !== 'https:' && !(scheme === 'http:' && LOOPBACK.test(parsed.hostname))) {
    const why = scheme === 'http:' ? 'plain http is allowed only for this machine (localhost)' : 'only https web pages may be opened';
    return { ok: false, reason: `the url's scheme "${scheme}" is refused: ${why}` };
  }
  if (parsed.username || parsed.password) return { ok: false, reason: 'the url carries a user name or password (user@host), which can hide where it really goes' };
  const domain = parsed.hostname;
  return { ok: true, url: parsed.href, domain, lookAlike: domain.split('.').some((label) => label.startsWith('xn--')) };
}
