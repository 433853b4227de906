import { Alert, Empty, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpPrompt } from '../../../../src/shared/mcpPrompts';
import { lazyPart } from '../../shell/lazyPart';
import type { SlashScope } from '../chat/slashPrompts/slashScope';
import { useSlashPrompts } from '../chat/slashPrompts/useSlashPrompts';
import '../../i18n/load/playground';

// The picked prompt's form and what it returns load with the first prompt picked: the list is what the card shows first.
const PlaygroundPrompt = lazyPart(() => import('./PlaygroundPrompt').then((m) => m.default));

const keyOf = (prompt: McpPrompt) => `${prompt.serverId}\n${prompt.name}`;

/**
 * The Playground's MCP prompts (docs/using/slash-commands.md#in-the-playground): pick one
 * of the agent's servers' prompts, fill its arguments, get it through the
 * host as this agent in this conversation, and see what it returns (PlaygroundPrompt.tsx).
 */
export function PlaygroundPrompts({ scope }: { scope: SlashScope }) {
  const { t } = useTranslation();
  const listed = useSlashPrompts(scope, '');
  const [pickedKey, setPickedKey] = useState<string | undefined>(undefined);
  const prompt = listed.matches.find((p) => keyOf(p) === pickedKey);

  if (listed.error) return <Alert type="error" showIcon title={listed.error} />;
  if (!listed.loading && listed.total === 0) return <Empty description={t('playground.prompts.none')} />;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Select
        style={{ minWidth: 320 }}
        loading={listed.loading}
        placeholder={t('playground.prompts.pick')}
        value={pickedKey}
        onChange={setPickedKey}
        showSearch
        optionFilterProp="label"
        options={listed.matches.map((p) => ({ value: keyOf(p), label: `/${p.name} · ${p.serverName}` }))}
        data-testid="playground-prompt-select"
      />
      {/* A new prompt is a new form: its arguments, and what the last one returned, go. */}
      {prompt ? <PlaygroundPrompt key={pickedKey} scope={scope} prompt={prompt} /> : null}
    </Space>
  );
}
