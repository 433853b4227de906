/** An answer to a server's question that the host refuses (an accepted form whose values do not fit it): the fields say which and why. */
export class ElicitationError extends Error {
  constructor(
    readonly code: 'INVALID',
    message: string,
    readonly fields: { path: string; message: string }[],
  ) {
    super(message);
  }
}
