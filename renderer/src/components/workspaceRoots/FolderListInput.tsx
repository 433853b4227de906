import { Input } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../../i18n/load/workspaceRoots';

/** The lines of a text box as folders: trimmed, blank lines dropped (the host checks each). */
export const foldersOf = (text: string): string[] =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * A list of folders typed one per line (workspace roots,
 * docs/using/agents.md#workspace-roots). The text is kept as typed (a blank
 * line while typing stays); the value is its folders.
 */
export function FolderListInput({ value, onChange, testId }: { value?: readonly string[]; onChange?(folders: string[]): void; testId: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => (value ?? []).join('\n'));
  // A value set from outside (the form reset, another agent opened) replaces the text; one typed here does not.
  useEffect(() => {
    setText((current) => (JSON.stringify(foldersOf(current)) === JSON.stringify(value ?? []) ? current : (value ?? []).join('\n')));
  }, [value]);
  return (
    <Input.TextArea
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        onChange?.(foldersOf(event.target.value));
      }}
      autoSize={{ minRows: 2, maxRows: 8 }}
      spellCheck={false}
      placeholder={t('workspaceRoots.placeholder')}
      data-testid={testId}
    />
  );
}
