import { handlerRegistry } from '../../shell/keys/handlerRegistry';

/**
 * "Edit this message" asked from outside its row (↑ in an empty composer;
 * docs/using/keyboard.md): the row, while it is shown, opens its editor.
 * Rows mount and unmount as they scroll, so each listens only while shown.
 */
const rows = handlerRegistry<string>();

/** Opens the editor of `messageId`'s row; false when that row is not shown. */
export const requestEdit = (messageId: string): boolean => rows.run(messageId);

/** The row of `messageId` opens its editor with `onRequest` (none: it cannot be edited). */
export const useEditRequest = (messageId: string, onRequest: (() => void) | undefined): void => rows.useHandler(messageId, onRequest);
