import { pageAnswers, runPageCommand, type PageCommand } from './commands';
import type { Shortcut } from './shortcuts';
import { SECTION_KEYS } from '../sections';
import { matchesEitherLanguage, type BothLanguages } from '../textSearch';

/** One line of the palette: a page to open or an action to take. */
export interface PaletteCommand {
  id: string;
  group: 'page' | 'action';
  /** The text key of its label (shown in the window's language, found in both). */
  label: string;
  /** More words it is found by (its route, say). */
  words?: string;
  shortcut?: Shortcut['id'];
  run(): void;
}

export interface PaletteDeps {
  navigate(path: string): void;
  theme: 'light' | 'dark';
  setTheme(mode: 'light' | 'dark'): void;
  setLocale(locale: 'zh' | 'en'): void;
  showSheet(): void;
}

/** An action the open page takes, listed only while that page answers it. */
const pageAction = (command: PageCommand, shortcut?: Shortcut['id']): PaletteCommand | undefined =>
  pageAnswers(command) ? { id: `action.${command}`, group: 'action', label: `keys.command.${command}`, ...(shortcut ? { shortcut } : {}), run: () => void runPageCommand(command) } : undefined;

/** Everything the palette offers now: every page, then the actions (the page's own only where it is open). */
export function paletteCommands(deps: PaletteDeps): PaletteCommand[] {
  const pages = SECTION_KEYS.map((key): PaletteCommand => ({ id: `page.${key}`, group: 'page', label: `common.nav.${key}`, words: `/${key}`, run: () => deps.navigate(`/${key}`) }));
  const actions: (PaletteCommand | undefined)[] = [
    { id: 'action.newChat', group: 'action', label: 'keys.command.newChat', shortcut: 'newChat', run: () => deps.navigate('/chat') },
    pageAction('searchConversations', 'searchConversations') ?? {
      id: 'action.searchConversations',
      group: 'action',
      label: 'keys.command.searchConversations',
      shortcut: 'searchConversations',
      run: () => deps.navigate('/chat?search=1'),
    },
    pageAction('focusComposer', 'focusComposer'),
    pageAction('editLast', 'editLast'),
    pageAction('regenerate', 'regenerate'),
    pageAction('stop', 'stop'),
    {
      id: 'action.theme',
      group: 'action',
      label: deps.theme === 'dark' ? 'common.header.lightTheme' : 'common.header.darkTheme',
      words: 'theme dark light 主题 深色 浅色',
      run: () => deps.setTheme(deps.theme === 'dark' ? 'light' : 'dark'),
    },
    { id: 'action.zh', group: 'action', label: 'keys.command.chinese', words: 'language 语言 中文 chinese', run: () => deps.setLocale('zh') },
    { id: 'action.en', group: 'action', label: 'keys.command.english', words: 'language 语言 english 英文', run: () => deps.setLocale('en') },
    { id: 'action.sheet', group: 'action', label: 'keys.command.sheet', shortcut: 'sheet', run: deps.showSheet },
  ];
  return [...pages, ...actions.filter((c): c is PaletteCommand => c !== undefined)];
}

/** The commands a query finds (by their label in either language, or their other words), in the order listed. */
export function matchCommands(commands: readonly PaletteCommand[], query: string, texts: BothLanguages): PaletteCommand[] {
  return commands.filter((command) => matchesEitherLanguage(query, [command.label], command.words, texts));
}
