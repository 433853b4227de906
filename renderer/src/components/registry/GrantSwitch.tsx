import { useState } from 'react';
import { App as AntApp, Switch, Tag, Tooltip } from 'antd';
import { CheckCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api, errorLine } from '../../api/client';
import type { CellState } from './registryModel';
import '../../i18n/load/registry';

/** One cell of the grant matrix: a switch for a grant, or why there is nothing to switch. */
export function GrantCell({ appId, targetId, state, onChanged }: { appId: string; targetId: string; state: CellState; onChanged: () => Promise<void> }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  // The value the user asked for, shown until the reloaded overview agrees (no flicker back).
  const [wanted, setWanted] = useState<boolean | null>(null);

  if (state.kind === 'owner') {
    return (
      <Tooltip title={t('registry.ownerSeesAll')}>
        <CheckCircleOutlined className="grant-owner" data-testid={`grant-${appId}-${targetId}`} data-state="owner" aria-label={t('registry.ownerSeesAll')} />
      </Tooltip>
    );
  }
  if (state.kind === 'own') {
    return (
      <Tooltip title={t('registry.ownHint')}>
        <Tag color="blue" data-testid={`grant-${appId}-${targetId}`} data-state="own" style={{ marginInlineEnd: 0 }}>
          {t('registry.own')}
        </Tag>
      </Tooltip>
    );
  }

  const toggle = async (on: boolean) => {
    setWanted(on);
    try {
      if (on) await api.call('registry.grant', { appId, id: targetId });
      else await api.call('registry.revoke', { appId, id: targetId });
      await onChanged();
    } catch (error) {
      message.error(errorLine(error));
    } finally {
      setWanted(null);
    }
  };

  return (
    <Switch
      size="small"
      checked={wanted ?? state.granted}
      loading={wanted !== null}
      onChange={toggle}
      data-testid={`grant-${appId}-${targetId}`}
      data-state={state.granted ? 'granted' : 'none'}
      aria-label={t(state.granted ? 'registry.revokeLabel' : 'registry.grantLabel', { app: appId, id: targetId })}
    />
  );
}
