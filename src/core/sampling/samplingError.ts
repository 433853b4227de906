/** An answer to a sampling request that the host refuses (edits outside the request's bounds): the request stays waiting. */
export class SamplingError extends Error {
  constructor(
    readonly code: 'INVALID',
    message: string,
  ) {
    super(message);
  }
}
