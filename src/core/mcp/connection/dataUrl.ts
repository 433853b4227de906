/**
 * Image (and audio) data in a tool result is base64, possibly written as a
 * data url (docs/rules/gateway.md#images-become-artifacts). Servers not built
 * on the SDK write data urls every way RFC 2397 allows: parameters before
 * `;base64` (`data:image/png;name=a.png;base64,`), any case (`DATA:`,
 * `;BASE64`), line breaks in the base64, or no `;base64` at all (percent-
 * encoded bytes). This reads them all into plain base64 and the type.
 */

export interface DataUrl {
  /** The media type the url names, lower-cased; undefined when it names none (`data:;base64,…`). */
  mimeType?: string;
  /** The bytes, as base64 without whitespace. */
  base64: string;
}

const DATA_SCHEME = /^\s*data:/i;

/** Whether a string is written as a data url (cheap: an anchored test). */
export function isDataUrl(text: string): boolean {
  return DATA_SCHEME.test(text);
}

/** The type and base64 bytes of a data url; undefined when `text` is not one. */
export function parseDataUrl(text: string): DataUrl | undefined {
  const scheme = DATA_SCHEME.exec(text);
  if (!scheme) return undefined;
  const comma = text.indexOf(',', scheme[0].length);
  if (comma < 0) return undefined;
  const [type = '', ...parameters] = text.slice(scheme[0].length, comma).split(';');
  const mimeType = type.trim().toLowerCase() || undefined;
  const payload = text.slice(comma + 1);
  const isBase64 = parameters.some((parameter) => parameter.trim().toLowerCase() === 'base64');
  return { mimeType, base64: isBase64 ? payload.replace(/\s+/g, '') : percentDecoded(payload).toString('base64') };
}

/** RFC 2397's non-base64 form: bytes as written, `%XX` escapes decoded (a bad escape is kept as written). */
function percentDecoded(payload: string): Buffer {
  const bytes: number[] = [];
  const raw = Buffer.from(payload, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    const hex = raw[i] === 0x25 && i + 2 < raw.length ? raw.subarray(i + 1, i + 3).toString('latin1') : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(raw[i]!);
  }
  return Buffer.from(bytes);
}

/** Whether `text` is base64 the way the SDK's schema checks it (atob: whitespace allowed, padding optional). */
export function isBase64(text: string): boolean {
  try {
    atob(text);
    return true;
  } catch {
    return false;
  }
}
