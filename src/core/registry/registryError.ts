/** What the registry refuses, by code, with close matches for a mistyped id. */
export type RegistryErrorCode = 'UNKNOWN_APP' | 'UNKNOWN_ID' | 'OWNER_SEES_ALL' | 'ID_HELD';

export class RegistryError extends Error {
  constructor(
    readonly code: RegistryErrorCode,
    message: string,
    readonly suggestions: string[] = [],
  ) {
    super(suggestions.length ? `${message}; did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?` : message);
  }
}
