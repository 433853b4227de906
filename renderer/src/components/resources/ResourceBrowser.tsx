import { Alert, Card, Empty, List, Select, Skeleton, Space, Switch, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, toApiError, type ApiError } from '../../api/client';
import { useApi, useHostEvent } from '../../api/hooks';
import { ApiErrorAlert } from '../../shell/ApiErrorAlert';
import type { ResourceAsker, ResourceRead } from './resourceAsker';
import { lazyPart } from '../../shell/lazyPart';
import { TemplateForm } from './TemplateForm';
import '../../i18n/load/resources';

// What was read loads with the first read: the servers and their resources are what the browser shows first.
const ResourceContents = lazyPart(() => import('./ResourceContents').then((m) => m.ResourceContents));

/**
 * A server's resources for an agent (docs/using/resources.md#browser): pick
 * one of the servers it may use, see what the server lists and its
 * templates (filled with the server's completions), read one and see it,
 * and subscribe to its updates where the server takes subscriptions: each
 * update re-reads it. Every request goes through the host's checked path.
 */
export function ResourceBrowser({ asker }: { asker: ResourceAsker }) {
  const { t } = useTranslation();
  const servers = useApi('resources.servers', asker, { refreshOn: ['mcp.reloaded', 'registry.changed', 'agents.changed'] });
  const [serverId, setServerId] = useState<string | undefined>();
  const server = servers.data?.servers.find((s) => s.serverId === serverId) ?? servers.data?.servers[0];
  const listing = useApi('resources.list', server ? { ...asker, serverId: server.serverId } : undefined, { skip: !server });
  const [uri, setUri] = useState<string | undefined>();
  const [read, setRead] = useState<ResourceRead | undefined>();
  const [readError, setReadError] = useState<ApiError | undefined>();
  const [subscribed, setSubscribed] = useState(false);
  const [updates, setUpdates] = useState(0);

  const open = async (target: string) => {
    if (!server) return;
    setUri(target);
    setReadError(undefined);
    try {
      setRead(await api.call('resources.read', { ...asker, serverId: server.serverId, uri: target }));
    } catch (error) {
      setRead(undefined);
      setReadError(toApiError(error));
    }
  };

  // Another server or agent: what was open belongs to the one before.
  useEffect(() => {
    setUri(undefined);
    setRead(undefined);
    setReadError(undefined);
    setSubscribed(false);
    setUpdates(0);
  }, [server?.serverId, asker.agentId, asker.conversationId]);

  useHostEvent('server.resources', (event) => {
    if (!server || event.serverId !== server.serverId || event.conversationId !== asker.conversationId) return;
    if (event.change === 'list') return void listing.reload();
    if (event.uri !== undefined && event.uri === uri && subscribed) {
      setUpdates((n) => n + 1);
      void open(event.uri);
    }
  });

  const toggle = async (on: boolean) => {
    if (!server || !uri) return;
    try {
      await api.call('resources.subscribe', { ...asker, serverId: server.serverId, uri, subscribed: on });
      setSubscribed(on);
    } catch (error) {
      setReadError(toApiError(error));
    }
  };

  if (!servers.data && servers.loading) return <Skeleton active />;
  if (servers.error) return <ApiErrorAlert error={servers.error} onRetry={() => void servers.reload()} />;
  if (!server) return <Empty description={t('resources.noServers')} data-testid="resources-no-servers" />;
  const data = listing.data;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="resource-browser">
      <Space wrap>
        <Typography.Text>{t('resources.server')}</Typography.Text>
        <Select
          style={{ minWidth: 240 }}
          value={server.serverId}
          onChange={setServerId}
          options={servers.data!.servers.map((s) => ({ value: s.serverId, label: `${s.name} (${s.serverId})` }))}
          data-testid="resources-server"
        />
      </Space>
      {listing.error && <ApiErrorAlert error={listing.error} onRetry={() => void listing.reload()} />}
      {!data && listing.loading && <Skeleton active />}
      {data && (
        <>
          {data.truncated && <Alert type="warning" showIcon title={t('resources.truncated')} />}
          <List
            size="small"
            header={t('resources.listed', { count: data.resources.length })}
            dataSource={data.resources}
            locale={{ emptyText: t('resources.none') }}
            data-testid="resources-list"
            renderItem={(resource) => (
              <List.Item style={{ cursor: 'pointer' }} onClick={() => void open(resource.uri)} data-testid="resource-item" data-uri={resource.uri}>
                <Space orientation="vertical" size={0}>
                  <Typography.Text strong={resource.uri === uri}>{resource.title ?? resource.name}</Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {resource.uri} {resource.mimeType ? <Tag>{resource.mimeType}</Tag> : null}
                  </Typography.Text>
                </Space>
              </List.Item>
            )}
          />
          {data.templates.length > 0 && (
            <Card size="small" title={t('resources.templates', { count: data.templates.length })}>
              {data.templates.map((template) => (
                <div key={template.uriTemplate} data-testid="resource-template" data-template={template.uriTemplate} style={{ marginBottom: 8 }}>
                  <Typography.Text strong>{template.title ?? template.name}</Typography.Text> <Typography.Text code>{template.uriTemplate}</Typography.Text>
                  <TemplateForm asker={asker} serverId={server.serverId} template={template} action={t('resources.read')} onUri={(filled) => void open(filled)} />
                </div>
              ))}
            </Card>
          )}
        </>
      )}
      {readError && <ApiErrorAlert error={readError} />}
      {uri && read && (
        <Card
          size="small"
          title={<Typography.Text code>{uri}</Typography.Text>}
          extra={
            data?.subscribe ? (
              <Space>
                {subscribed && updates > 0 && (
                  <Tag color="blue" data-testid="resource-updates">
                    {t('resources.updates', { count: updates })}
                  </Tag>
                )}
                <Switch checked={subscribed} onChange={(on) => void toggle(on)} data-testid="resource-subscribe" />
                <Typography.Text>{t('resources.subscribe')}</Typography.Text>
              </Space>
            ) : null
          }
          data-testid="resource-read"
        >
          <ResourceContents read={read} />
        </Card>
      )}
    </Space>
  );
}
