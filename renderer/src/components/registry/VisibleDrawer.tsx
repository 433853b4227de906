import { Drawer, Empty, List, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ownValue } from '../../api/ownValue';
import type { Overview } from './registryModel';
import '../../i18n/load/registry';

interface Label {
  name: string;
  lang?: string;
}

function IdList({ title, ids, labels, testId }: { title: string; ids: string[]; labels: Map<string, Label>; testId: string }) {
  const { t } = useTranslation();
  return (
    <section style={{ marginBottom: 24 }}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>{`${title} (${ids.length})`}</Typography.Title>
      {ids.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('registry.seesNothing')} />
      ) : (
        <List
          size="small"
          data-testid={testId}
          dataSource={ids}
          renderItem={(id) => (
            <List.Item>
              <span>
                <Typography.Text>{labels.get(id)?.name ?? id}</Typography.Text> {labels.get(id)?.lang ? <Tag>{labels.get(id)?.lang}</Tag> : null}
              </span>
              <Typography.Text type="secondary" code style={{ fontSize: 12 }}>
                {id}
              </Typography.Text>
            </List.Item>
          )}
        />
      )}
    </section>
  );
}

/** What one app may see right now: its own registrations plus its grants (everything, for the owner). */
export function VisibleDrawer({ overview, appId, onClose }: { overview: Overview; appId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const visible = appId ? ownValue(overview.visible, appId) : undefined;
  const labels = new Map<string, Label>([
    ...overview.servers.map((server) => [server.id, { name: server.name }] as const),
    ...overview.prompts.map((prompt) => [prompt.id, prompt.lang ? { name: prompt.title ?? prompt.name, lang: prompt.lang } : { name: prompt.title ?? prompt.name }] as const),
  ]);
  return (
    <Drawer open={appId !== null} onClose={onClose} size={460} title={appId ? t('registry.visibleTitle', { app: appId }) : undefined} data-testid="visible-drawer">
      {appId === overview.owner ? (
        <Tag color="gold" style={{ marginBottom: 12 }}>
          {t('registry.ownerSeesAll')}
        </Tag>
      ) : null}
      {visible ? (
        <>
          <IdList title={t('registry.tab.servers')} ids={visible.servers} labels={labels} testId="visible-servers" />
          <IdList title={t('registry.tab.prompts')} ids={visible.prompts} labels={labels} testId="visible-prompts" />
        </>
      ) : (
        <Empty description={t('registry.seesNothing')} />
      )}
    </Drawer>
  );
}
