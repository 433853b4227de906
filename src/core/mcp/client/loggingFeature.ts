import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ClientFeature } from './clientFeatures.js';

/** Bytes of one log message kept (its data as text); the server log as a whole is bounded too (process/serverLog.ts). */
const MAX_MESSAGE_BYTES = 4 * 1024;
/** Characters of a logger's name kept. */
const MAX_LOGGER_CHARS = 100;

/**
 * A server's own log messages (`notifications/message`) go into its log,
 * beside its stderr, with their level and logger
 * (docs/rules/mcp-yaml.md#server-log-messages). Nothing is declared for it:
 * logging is the server's capability; the level it sends from is set with
 * `logging/setLevel` (ServerConnection.setLogLevel). A server that logs in
 * a loop fills a bounded log: each message is cut to 4 KB and the oldest
 * lines go first, and the log view says how many went.
 */
export const loggingFeature: ClientFeature = {
  name: 'logging',
  attach(session) {
    const { log } = session;
    if (!log) return;
    session.onNotification(LoggingMessageNotificationSchema, ({ params }) => {
      const logger = typeof params.logger === 'string' ? params.logger.slice(0, MAX_LOGGER_CHARS) : undefined;
      log.append('message', messageText(params.data), { level: params.level, ...(logger ? { logger } : {}) });
    });
  },
};

/** The message's data as one bounded line of text: a string as it is, anything else as JSON. */
function messageText(data: unknown): string {
  let text: string;
  try {
    text = typeof data === 'string' ? data : (JSON.stringify(data) ?? String(data));
  } catch {
    text = String(data);
  }
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_MESSAGE_BYTES) return text;
  const kept = Buffer.from(text)
    .subarray(0, MAX_MESSAGE_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${kept}… (${bytes - Buffer.byteLength(kept)} more bytes not kept)`;
}
