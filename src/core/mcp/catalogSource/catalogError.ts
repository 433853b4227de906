export type CatalogErrorCode =
  /** The registry could not be reached, did not answer in time, or answered an error status. */
  | 'CATALOG_UNREACHABLE'
  /** The registry answered something that is not its JSON (an HTML page, a body past the limit, a page of the wrong shape). */
  | 'CATALOG_BAD_ANSWER'
  /** The registry gave back the cursor it was asked with: following it would never end. */
  | 'CATALOG_CURSOR_LOOP'
  /** No entry of that name in the registry. */
  | 'CATALOG_NOT_FOUND'
  /** The way to run an entry that was chosen cannot be added (SSE, a package name ChatOS will not run; to mcp.yaml: an mcpb bundle, which installs as a plugin). */
  | 'CATALOG_NOT_INSTALLABLE'
  /** A value the entry needs was not given, or one was given that it does not ask for. */
  | 'CATALOG_VALUES';

/** A refused or failed catalog read or add; names the registry by origin only, never a query or a key. */
export class CatalogError extends Error {
  override readonly name = 'CatalogError';

  constructor(
    readonly code: CatalogErrorCode,
    message: string,
    /** How to fix it, as an instruction. */
    readonly hint?: string,
  ) {
    super(message);
  }
}
