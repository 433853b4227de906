/** The port `chatos serve` listens on unless `--port` says otherwise; the doctor checks it too. */
export const DEFAULT_SERVE_PORT = 7357;
