import { Checkbox, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PermissionLevel } from '../../../../src/shared/mcp';
import '../../i18n/load/agents';

/** A level per sub-agent id, as stored with the agent (`subAgentPermissions`). */
export type SubAgentLevels = Record<string, PermissionLevel>;

/**
 * Per chosen sub-agent, whether a call of it asks the user first (level
 * `confirm`); unchecked, it runs without asking (the default level, `write`)
 * and is recorded in the history like any tool call. A level other than
 * these two (set in the agent's JSON) is kept as it is until changed here.
 */
export function SubAgentConfirm({ ids, nameOf, value, onChange }: { ids: readonly string[]; nameOf(id: string): string; value?: SubAgentLevels; onChange?(next: SubAgentLevels): void }) {
  const { t } = useTranslation();
  const levels = value ?? {};
  const set = (id: string, asks: boolean) => {
    const next: SubAgentLevels = Object.assign(Object.create(null) as SubAgentLevels, levels);
    if (asks) next[id] = 'confirm';
    else delete next[id];
    onChange?.(next);
  };
  return (
    <Space orientation="vertical" size={2} data-testid="agent-sub-agent-confirm">
      {ids.map((id) => (
        <Checkbox key={id} checked={Object.hasOwn(levels, id) && levels[id] === 'confirm'} onChange={(e) => set(id, e.target.checked)} data-testid={`agent-sub-agent-confirm-${id}`}>
          {t('agents.field.subAgentConfirmOne', { name: nameOf(id) })}
          {Object.hasOwn(levels, id) && levels[id] !== 'confirm' && <Typography.Text type="secondary"> ({levels[id]})</Typography.Text>}
        </Checkbox>
      ))}
    </Space>
  );
}
