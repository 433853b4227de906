import { useState } from 'react';
import { Button, Checkbox, Popconfirm } from 'antd';
import { DeleteOutlined, DisconnectOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PluginView } from '../../../../src/shared/hostApi';
import type { DroppedGrant } from '../../../../src/shared/pluginUpdate';
import { api } from '../../api/client';
import { useAction } from '../useAction';
import '../../i18n/load/apps';

/** Takes trust back: the plugin's servers, pages and backend stop until it is trusted again. */
export function UntrustButton({ plugin, onDone }: { plugin: PluginView; onDone: () => void }) {
  const { t } = useTranslation();
  const { busy, run } = useAction(onDone);
  const pluginId = plugin.id ?? '';
  return (
    <Popconfirm
      title={t('apps.untrust.confirm', { name: plugin.name ?? pluginId })}
      description={t('apps.untrust.explain')}
      okText={t('apps.untrust.button')}
      cancelText={t('common.cancel')}
      onConfirm={() =>
        run(async () => {
          await api.call('plugins.untrust', { pluginId });
          return t('apps.untrust.done', { name: plugin.name ?? pluginId });
        })
      }
    >
      <Button size="small" icon={<StopOutlined />} loading={busy} data-testid={`untrust-${pluginId}`}>
        {t('apps.untrust.button')}
      </Button>
    </Popconfirm>
  );
}

/** Removes a user plugin (its registrations and grants go with it); its data folder only when asked. */
export function UninstallButton({ plugin, onDone }: { plugin: PluginView; onDone: () => void }) {
  const { t } = useTranslation();
  const { busy, run } = useAction(onDone);
  const [purge, setPurge] = useState(false);
  const [dropped, setDropped] = useState<DroppedGrant[]>([]);
  const pluginId = plugin.id ?? '';
  return (
    <Popconfirm
      title={t('apps.uninstall.confirm', { name: plugin.name ?? pluginId })}
      description={
        <div className="trust-confirm">
          <div>{t('apps.uninstall.explain')}</div>
          {dropped.length ? (
            <div data-testid={`uninstall-grants-${pluginId}`}>
              {t('apps.uninstall.dropsGrants')}
              <ul>
                {dropped.map((grant) => (
                  <li key={`${grant.appId} ${grant.id}`}>{t('apps.uninstall.grantLine', { app: grant.appId, id: grant.id })}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <Checkbox checked={purge} onChange={(event) => setPurge(event.target.checked)} data-testid={`uninstall-purge-${pluginId}`}>
            {t('apps.uninstall.purge')}
          </Checkbox>
        </div>
      }
      okText={t('apps.uninstall.button')}
      okButtonProps={{ danger: true }}
      cancelText={t('common.cancel')}
      onOpenChange={(open) => {
        if (!open) return;
        setPurge(false);
        setDropped([]);
        void api.call('plugins.uninstallPreview', { pluginId }).then(
          (preview) => setDropped(preview.grants),
          () => setDropped([]),
        );
      }}
      onConfirm={() =>
        run(async () => {
          await api.call('plugins.uninstall', { pluginId, purge });
          return t(purge ? 'apps.uninstall.donePurged' : 'apps.uninstall.done', { name: plugin.name ?? pluginId });
        })
      }
    >
      <Button size="small" danger icon={<DeleteOutlined />} loading={busy} data-testid={`uninstall-${pluginId}`}>
        {t('apps.uninstall.button')}
      </Button>
    </Popconfirm>
  );
}

/** Unlinks a development link: it stops, its trust and registrations go; its folder is left as it is. */
export function UnlinkButton({ plugin, onDone }: { plugin: PluginView; onDone: () => void }) {
  const { t } = useTranslation();
  const { busy, run } = useAction(onDone);
  const pluginId = plugin.id ?? '';
  return (
    <Popconfirm
      title={t('apps.devLink.unlinkConfirm', { name: plugin.name ?? pluginId })}
      description={t('apps.devLink.unlinkExplain')}
      okText={t('apps.devLink.unlink')}
      cancelText={t('common.cancel')}
      onConfirm={() =>
        run(async () => {
          await api.call('plugins.devUnlink', { target: plugin.dir });
          return t('apps.devLink.unlinked', { name: plugin.name ?? pluginId });
        })
      }
    >
      <Button size="small" icon={<DisconnectOutlined />} loading={busy} data-testid={`unlink-${pluginId}`}>
        {t('apps.devLink.unlink')}
      </Button>
    </Popconfirm>
  );
}
