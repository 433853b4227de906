import type { Problem } from '../../shared/problems.js';

/** Why a plugin was not installed, by code. */
export type InstallErrorCode =
  | 'SOURCE_MISSING'
  | 'INVALID_PLUGIN'
  | 'ALREADY_INSTALLED'
  | 'ZIP_REFUSED'
  | 'HAS_LINKS'
  /** An MCP Bundle whose manifest.json is missing or does not pass mcpb's schema. */
  | 'INVALID_BUNDLE'
  /** An MCP Bundle ChatOS will not run as written (its server, a setting); the problem names the field. */
  | 'BUNDLE_REFUSED'
  /** An MCP Bundle whose signature block is there but does not hold. */
  | 'SIGNATURE_REFUSED'
  /** An MCP Bundle's address over plain http (not allowed by the user), or a redirect from https down to http. */
  | 'DOWNLOAD_REFUSED'
  /** A downloaded MCP Bundle whose bytes do not have the SHA-256 its catalog entry names: not the file the registry lists. */
  | 'DIGEST_MISMATCH';

export class InstallError extends Error {
  constructor(
    readonly code: InstallErrorCode,
    message: string,
    readonly hint?: string,
    readonly problems: Problem[] = [],
  ) {
    super(message);
  }
}
