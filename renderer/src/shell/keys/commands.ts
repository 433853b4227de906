import { handlerRegistry } from './handlerRegistry';

/**
 * What the keys and the command palette can ask of the page that is open
 * (docs/using/keyboard.md): the Chat page answers these while it shows a
 * conversation (or the new-chat form). A command nobody answers does
 * nothing, so a shortcut on the wrong page is harmless.
 */
export type PageCommand = 'stop' | 'regenerate' | 'editLast' | 'focusComposer' | 'searchConversations';

const commands = handlerRegistry<PageCommand>();

/** Runs the open page's answer to `command`; false when none answers (or it declined, e.g. Stop with nothing running). */
export const runPageCommand = (command: PageCommand): boolean => commands.run(command);

/** Whether the open page answers `command` (the palette lists only what would do something). */
export const pageAnswers = (command: PageCommand): boolean => commands.has(command);

/** Answers `command` while the component is mounted; `undefined`: not now. */
export const usePageCommand = (command: PageCommand, handler: (() => boolean | void) | undefined): void => commands.useHandler(command, handler);
