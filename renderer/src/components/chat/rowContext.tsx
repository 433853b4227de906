import { IconProvider } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The words a conversation's rows show: `t` for text with values, `word(key)` for fixed text (translated once per language), the language for numbers. */
export interface RowWords {
  t: TFunction;
  word(key: string): string;
  language: string;
}

const Words = createContext<RowWords | undefined>(undefined);

/** The keys of the rows' parts the user opened (a tool card, an app's context): kept by the list, not by the part, which unmounts as it scrolls away. */
const Opened = createContext<Set<string> | undefined>(undefined);

/** The icons' own style sheet is on the page already (the shell's icons put it there): a row's icons do not look for it again at every mount. */
const ICONS = { zeroRuntime: true };

/**
 * What the rows of a conversation share, taken once by the list that
 * shows them. A long conversation's rows mount again each time they scroll
 * into view: react-i18next's hook costs a subscription and a bound
 * function per mount in every part of a row that has words, and each antd
 * icon scans the page's style sheets when it mounts.
 */
export function RowContext({ children, opened: given }: { children: ReactNode; opened?: Set<string> }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const words = useMemo(() => {
    const known = new Map<string, string>();
    const word = (key: string) => {
      let text = known.get(key);
      if (text === undefined) known.set(key, (text = t(key)));
      return text;
    };
    return { t, word, language };
  }, [t, language]);
  // The pane's set outlives a reload of its rows (a jump to a search hit); a sub-agent's list inside a row shares its conversation's.
  const outer = useContext(Opened);
  const own = useRef<Set<string>>(undefined);
  const opened = given ?? outer ?? (own.current ??= new Set());
  return (
    <Words.Provider value={words}>
      <Opened.Provider value={opened}>
        <IconProvider value={ICONS}>{children}</IconProvider>
      </Opened.Provider>
    </Words.Provider>
  );
}

export function useRowWords(): RowWords {
  const words = useContext(Words);
  if (!words) throw new Error('a conversation row is rendered outside RowContext: wrap the list that shows it');
  return words;
}

/**
 * Whether a part of a row is open, kept by the list under `key`: a part the
 * user opened is still open when its row scrolls back into view, or mounts
 * again because its message was updated.
 */
export function useKeptOpen(key: string): [boolean, (open: boolean) => void] {
  const opened = useContext(Opened);
  const [open, setOpenState] = useState(() => opened?.has(key) === true);
  const setOpen = useCallback(
    (next: boolean) => {
      if (next) opened?.add(key);
      else opened?.delete(key);
      setOpenState(next);
    },
    [opened, key],
  );
  return [open, setOpen];
}
