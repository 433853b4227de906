/**
 * The numbers a face names in its help (limits, default timeouts). Each comes
 * from a module with no imports, so `chatos --help` shows them without
 * loading the services they belong to.
 */
export { MAX_ATTACHMENT_BYTES } from '../chat/attachments/attachmentLimits.js';
export { DEFAULT_TEST_TIMEOUT_MS } from '../mcp/admin/testTimeout.js';
export { MODEL_TEST_TIMEOUT_MS } from '../models/modelTestTimeout.js';
