import { useState } from 'react';
import { Alert, App as AntApp, Button, Card, Input, Popconfirm, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, FolderAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { api, toApiError, type ApiError } from '../../api/client';
import { useApi } from '../../api/hooks';
import { ProblemList } from '../ProblemList';
import { rootKindKey } from './rootKind';
import { ActionErrorAlert } from '../../shell/ActionErrorAlert';
import '../../i18n/load/roots';

/**
 * The plugin roots every process scans (remembered in the data home), with
 * adding and forgetting one, and pruning the registrations whose plugin is
 * gone. The host does the work; this only asks.
 */
export function PluginRootsCard({ onChanged }: { onChanged: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const roots = useApi('roots.list', {}, { refreshOn: ['plugins.changed'] });
  const gone = useApi('registry.prune', { apply: false }, { refreshOn: ['plugins.changed', 'registry.changed', 'mcp.reloaded'] });
  const [dir, setDir] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      await Promise.all([roots.reload(), gone.reload()]);
      onChanged();
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };
  const add = () =>
    run(async () => {
      const result = await api.call('roots.add', { dir: dir.trim() });
      message.success(t(result.added ? 'roots.added' : 'roots.alreadyAdded', { dir: result.dir }));
      setDir('');
    });
  const remove = (root: string) =>
    run(async () => {
      const result = await api.call('roots.remove', { dir: root });
      message.success(t('roots.removed', { dir: result.dir }));
    });
  const prune = () =>
    run(async () => {
      const result = await api.call('registry.prune', { apply: true });
      message.success(t('roots.pruned', { count: result.registrations.length }));
    });

  const missing = gone.data?.registrations ?? [];
  return (
    <Card title={t('roots.title')} size="small" data-testid="plugin-roots">
      <Typography.Paragraph type="secondary">{t('roots.explain')}</Typography.Paragraph>
      <ul className="plugin-roots">
        {(roots.data?.roots ?? []).map((root) => (
          <li key={root.dir} data-testid="plugin-root" data-dir={root.dir}>
            <Space wrap>
              <Typography.Text code>{root.dir}</Typography.Text>
              <Tag>{t(rootKindKey(root))}</Tag>
              {root.exists ? null : <Tag color="orange">{t('roots.noFolder')}</Tag>}
              {root.remembered ? (
                <Popconfirm
                  title={t('roots.removeConfirm', { dir: root.dir })}
                  description={<div style={{ maxWidth: 360 }}>{t('roots.removeExplain')}</div>}
                  onConfirm={() => remove(root.dir)}
                  okButtonProps={{ 'data-testid': 'plugin-root-remove-ok' } as Record<string, string>}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} disabled={busy} data-testid="plugin-root-remove">
                    {t('roots.remove')}
                  </Button>
                </Popconfirm>
              ) : null}
            </Space>
          </li>
        ))}
      </ul>
      <Space.Compact style={{ width: '100%' }}>
        <Input value={dir} onChange={(event) => setDir(event.target.value)} onPressEnter={() => dir.trim() && void add()} placeholder={t('roots.placeholder')} data-testid="plugin-root-input" />
        <Button icon={<FolderAddOutlined />} onClick={() => void add()} disabled={!dir.trim()} loading={busy} data-testid="plugin-root-add">
          {t('roots.add')}
        </Button>
      </Space.Compact>
      {error ? <ActionErrorAlert error={error} testId="plugin-root-error" style={{ marginTop: 12 }} /> : null}
      <ProblemList problems={roots.data?.problems ?? []} testId="plugin-roots-problems" />
      {missing.length > 0 ? (
        <Alert
          style={{ marginTop: 12 }}
          type="warning"
          showIcon
          data-testid="registrations-missing"
          title={t('roots.missingTitle', { count: missing.length })}
          description={
            <>
              <div>{t('roots.missingExplain')}</div>
              <ul>
                {missing.map((r) => (
                  <li key={`${r.kind}:${r.id}`}>
                    <Typography.Text code>{r.id}</Typography.Text> {r.reason}
                  </li>
                ))}
              </ul>
            </>
          }
          action={
            <Popconfirm title={t('roots.pruneConfirm')} onConfirm={() => prune()} okButtonProps={{ 'data-testid': 'prune-ok' } as Record<string, string>}>
              <Button size="small" danger disabled={busy} data-testid="prune">
                {t('roots.prune')}
              </Button>
            </Popconfirm>
          }
        />
      ) : null}
    </Card>
  );
}
