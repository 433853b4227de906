import { Empty, Input, Modal, Typography, type InputRef } from 'antd';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { i18n } from '../../i18n';
import { usePreferences } from '../preferences';
import { matchCommands, paletteCommands, type PaletteCommand } from './paletteCommands';
import { ShortcutKeys } from './ShortcutKeys';
import '../../i18n/load/keys';

/**
 * The command palette (Mod+K; docs/using/keyboard.md#the-command-palette):
 * every page and action, found by words in Chinese or English, run with
 * Enter. Built on antd's Modal and Input rather than a palette library
 * (cmdk, kbar): it then has the window's theme, focus trap, Esc and
 * reduced motion at no cost, and the list is a few dozen lines. A chosen
 * command runs after the palette closed, so what it focuses keeps focus.
 */
export default function CommandPalette({ open, mac, onClose, onShowSheet }: { open: boolean; mac: boolean; onClose(): void; onShowSheet(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { theme, setTheme, setLocale } = usePreferences();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<InputRef>(null);
  const chosen = useRef<PaletteCommand>(undefined);

  // Read when it opens: which actions the open page answers then.
  const commands = useMemo(
    () => (open ? paletteCommands({ navigate: (path) => void navigate(path), theme, setTheme, setLocale, showSheet: onShowSheet }) : []),
    [open, navigate, theme, setTheme, setLocale, onShowSheet],
  );
  const texts = useMemo(() => ({ zh: i18n.getFixedT('zh'), en: i18n.getFixedT('en') }), []);
  const found = useMemo(() => matchCommands(commands, query, texts), [commands, query, texts]);
  const current = Math.min(active, Math.max(found.length - 1, 0));

  useEffect(() => {
    if (!open) return;
    setQuery('');
    setActive(0);
  }, [open]);

  const choose = (command: PaletteCommand | undefined) => {
    if (!command) return;
    chosen.current = command;
    onClose();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    const step = event.key === 'ArrowDown' ? 1 : event.key === 'ArrowUp' ? -1 : 0;
    if (step) {
      event.preventDefault();
      if (found.length) setActive((current + step + found.length) % found.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(found[current]);
    }
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      closable={false}
      width={560}
      styles={{ body: { padding: 0 } }}
      wrapProps={{ 'data-keys-dialog': 'palette' }}
      afterOpenChange={(isOpen) => {
        if (isOpen) input.current?.focus();
      }}
      afterClose={() => {
        const command = chosen.current;
        chosen.current = undefined;
        command?.run();
      }}
      data-testid="command-palette"
    >
      <div className="command-palette">
        <Input
          ref={input}
          autoFocus
          size="large"
          variant="borderless"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          placeholder={t('keys.palette.placeholder')}
          aria-label={t('keys.palette.label')}
          role="combobox"
          aria-expanded
          aria-controls="command-palette-list"
          aria-activedescendant={found[current] ? `command-${found[current].id}` : undefined}
          data-testid="command-palette-input"
        />
        {found.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('keys.palette.none')} data-testid="command-palette-empty" />
        ) : (
          <ul className="command-palette-list" id="command-palette-list" role="listbox" aria-label={t('keys.palette.label')} data-testid="command-palette-list">
            {found.map((command, index) => (
              <li
                key={command.id}
                id={`command-${command.id}`}
                role="option"
                aria-selected={index === current}
                className={index === current ? 'command-palette-item command-palette-item-active' : 'command-palette-item'}
                onMouseMove={() => index !== current && setActive(index)}
                onClick={() => choose(command)}
                data-testid={`command-${command.id}`}
              >
                <Typography.Text type="secondary" className="command-palette-group">
                  {t(`keys.group.${command.group}`)}
                </Typography.Text>
                <span className="command-palette-label">{t(command.label)}</span>
                {command.shortcut && <ShortcutKeys id={command.shortcut} mac={mac} />}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}
