import { Empty, Input, List, Modal, Skeleton, Space, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, toApiError, type ApiError } from '../../api/client';
import { ApiErrorAlert } from '../../shell/ApiErrorAlert';
import type { ResourceAsker, ResourceListing } from './resourceAsker';
import { TemplateForm } from './TemplateForm';
import '../../i18n/load/resources';

/** Listings shown at most: a search narrows the rest. */
const MAX_SHOWN = 50;

/** Every server's listing for the agent (each asked once as the picker opens); a server that fails is said, the others still listed. */
function useAgentResources(asker: ResourceAsker | undefined, open: boolean) {
  const [listings, setListings] = useState<ResourceListing[] | undefined>();
  const [errors, setErrors] = useState<ApiError[]>([]);
  useEffect(() => {
    if (!asker || !open) return;
    let live = true;
    setListings(undefined);
    setErrors([]);
    void (async () => {
      const failed: ApiError[] = [];
      const found: ResourceListing[] = [];
      try {
        const { servers } = await api.call('resources.servers', asker);
        await Promise.all(
          servers.map((server) =>
            api.call('resources.list', { ...asker, serverId: server.serverId }).then(
              (listing) => void found.push(listing),
              // A server without resources is simply not listed; any other failure is said.
              (error: unknown) => {
                const apiError = toApiError(error);
                if (apiError.code !== 'NOT_OFFERED') failed.push(apiError);
              },
            ),
          ),
        );
      } catch (error) {
        failed.push(toApiError(error));
      }
      if (!live) return;
      setListings(found.sort((a, b) => (a.serverId < b.serverId ? -1 : 1)));
      setErrors(failed);
    })();
    return () => {
      live = false;
    };
  }, [asker?.agentId, asker?.conversationId, asker?.flow, open]);
  return { listings, errors };
}

const matches = (query: string, ...texts: (string | undefined)[]) => !query || texts.some((text) => text?.toLowerCase().includes(query));

/**
 * The @-mention picker (docs/using/resources.md#mention): the resources of
 * the servers the conversation's agent has, searched by name or uri, and
 * their templates filled in with the servers' completions. Picking one
 * attaches it to the message.
 */
export function ResourceMention(props: { asker: ResourceAsker | undefined; open: boolean; onClose(): void; onPick(serverId: string, uri: string): void }) {
  const { asker, open, onClose, onPick } = props;
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const { listings, errors } = useAgentResources(asker, open);
  const q = query.trim().toLowerCase();
  // MCP App views are the host's to show in a frame, not content to attach: not offered.
  const resources = (listings ?? []).flatMap((listing) => listing.resources.filter((r) => !r.view && matches(q, r.name, r.title, r.uri)).map((resource) => ({ serverId: listing.serverId, resource })));
  const templates = (listings ?? []).flatMap((listing) =>
    listing.templates.filter((tp) => !tp.view && matches(q, tp.name, tp.title, tp.uriTemplate)).map((template) => ({ serverId: listing.serverId, template })),
  );
  const pick = (serverId: string, uri: string) => {
    onPick(serverId, uri);
    setQuery('');
    onClose();
  };
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('resources.mention.title')} width={720} destroyOnHidden data-testid="resource-mention">
      <Input.Search autoFocus allowClear value={query} onChange={(event) => setQuery(event.target.value)} placeholder={t('resources.mention.search')} data-testid="resource-mention-search" />
      {errors.map((error, index) => (
        <ApiErrorAlert key={index} error={error} />
      ))}
      {!listings ? (
        <Skeleton active />
      ) : resources.length + templates.length === 0 ? (
        <Empty description={t('resources.mention.none')} />
      ) : (
        <>
          <List
            size="small"
            dataSource={resources.slice(0, MAX_SHOWN)}
            renderItem={({ serverId, resource }) => (
              <List.Item style={{ cursor: 'pointer' }} onClick={() => pick(serverId, resource.uri)} data-testid="resource-mention-item" data-uri={resource.uri}>
                <Space orientation="vertical" size={0}>
                  <Typography.Text>{resource.title ?? resource.name}</Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    <Tag>{serverId}</Tag>
                    {resource.uri}
                  </Typography.Text>
                </Space>
              </List.Item>
            )}
          />
          {templates.slice(0, MAX_SHOWN).map(({ serverId, template }) => (
            <div key={`${serverId}|${template.uriTemplate}`} data-testid="resource-mention-template" data-template={template.uriTemplate} style={{ marginTop: 8 }}>
              <Typography.Text>{template.title ?? template.name}</Typography.Text> <Tag>{serverId}</Tag> <Typography.Text code>{template.uriTemplate}</Typography.Text>
              {asker && <TemplateForm asker={asker} serverId={serverId} template={template} action={t('resources.mention.attach')} onUri={(uri) => pick(serverId, uri)} />}
            </div>
          ))}
        </>
      )}
    </Modal>
  );
}
