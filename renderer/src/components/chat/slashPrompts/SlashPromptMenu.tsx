import { Alert, List, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { McpPrompt } from '../../../../../src/shared/mcpPrompts';
import type { useSlashPrompts } from './useSlashPrompts';

/** The list a `/` opens above the composer: each prompt with its server's name and its description; a click picks it. */
export function SlashPromptMenu({ state, onPick }: { state: ReturnType<typeof useSlashPrompts>; onPick(prompt: McpPrompt): void }) {
  const { t } = useTranslation();
  if (!state.open) return null;
  const empty = state.loading ? t('slashPrompts.loading') : state.total === 0 ? t('slashPrompts.none') : t('slashPrompts.noMatch', { query: state.query });
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
