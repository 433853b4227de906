import { Alert, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { McpPrompt } from '../../../../../src/shared/mcpPrompts';
import { useEffect, type RefObject } from 'react';
import type { SlashScope } from './slashScope';
import { useSlashPrompts } from './useSlashPrompts';
import '../../../i18n/load/slashPrompts';

/** The list a `/` opens above the composer: each prompt with its server's name and its description; a click picks it. */
export function SlashPromptMenu({ scope, query, onPick, first }: { scope: SlashScope; query: string; onPick(prompt: McpPrompt): void; first: RefObject<McpPrompt | undefined> }) {
  const { t } = useTranslation();
  const state = useSlashPrompts(scope, query);
  // Enter in the box picks the first match (the composer asks through `first`).
  useEffect(() => {
    first.current = state.matches[0];
    return () => {
      first.current = undefined;
    };
  }, [first, state.matches]);
  const empty = state.loading ? '…' : state.total === 0 ? t('slashPrompts.none') : t('slashPrompts.noMatch');
  return (
    <div className="slash-prompt-menu" data-testid="slash-prompt-menu" role="listbox" aria-label={t('slashPrompts.menu')}>
      {state.error ? <Alert type="error" showIcon message={state.error} /> : null}
      <List
        size="small"
        dataSource={state.matches}
        locale={{ emptyText: empty }}
        renderItem={(prompt) => (
          <List.Item
            key={`${prompt.serverId}\n${prompt.name}`}
            role="option"
            className="slash-prompt-item"
            data-testid="slash-prompt-item"
            data-name={prompt.name}
            data-server={prompt.serverId}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onPick(prompt)}
          >
            <List.Item.Meta
              title={
                <span>
                  <Typography.Text code>/{prompt.name}</Typography.Text> <Typography.Text type="secondary">{prompt.serverName}</Typography.Text>
                </span>
              }
              description={prompt.description}
            />
          </List.Item>
        )}
      />
    </div>
  );
}
