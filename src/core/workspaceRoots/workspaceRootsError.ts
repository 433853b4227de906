/** Workspace roots that cannot be saved as given: `fields` names each bad folder (`roots.<index>`) and what to change. */
export class WorkspaceRootsError extends Error {
  override readonly name = 'WorkspaceRootsError';
  readonly code = 'ROOTS_INVALID';

  constructor(
    message: string,
    readonly fields: { path: string; message: string }[],
  ) {
    super(message);
  }
}
