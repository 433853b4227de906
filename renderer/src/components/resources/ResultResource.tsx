import { LinkOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toApiError, type ApiError } from '../../api/client';
import { ApiErrorAlert } from '../../shell/ApiErrorAlert';
import { ResourceContents } from './ResourceContents';
import type { ResourceRead } from './resourceAsker';
import '../../i18n/load/resources';

/** Reads a resource of the tool's server through the host's checked path. */
export type OpenResource = (uri: string) => Promise<ResourceRead>;

type Link = { type: 'resource_link'; uri: string; name?: string; mimeType?: string };
type Embedded = { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } };

const isLink = (json: unknown): json is Link => (json as Link | null)?.type === 'resource_link' && typeof (json as Link).uri === 'string';
const isEmbedded = (json: unknown): json is Embedded => {
  const resource = (json as Embedded | null)?.type === 'resource' ? (json as Embedded).resource : undefined;
  return typeof resource?.uri === 'string' && (typeof resource.text === 'string' || typeof resource.blob === 'string');
};

/** A resource link the user may open: read through the checked path, shown under it. */
function ResourceLink({ link, open }: { link: Link; open: OpenResource | undefined }) {
  const { t } = useTranslation();
  const [read, setRead] = useState<ResourceRead | undefined>();
  const [error, setError] = useState<ApiError | undefined>();
  const [loading, setLoading] = useState(false);
  const go = async () => {
    if (!open) return;
    setLoading(true);
    setError(undefined);
    try {
      setRead(await open(link.uri));
    } catch (e) {
      setError(toApiError(e));
    } finally {
      setLoading(false);
    }
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="result-resource-link" data-uri={link.uri}>
      <Space wrap>
        <LinkOutlined />
        <Typography.Text>{link.name ?? link.uri}</Typography.Text>
        <Typography.Text type="secondary" code>
          {link.uri}
        </Typography.Text>
        {open && (
          <Button size="small" loading={loading} onClick={() => void go()} data-testid="result-resource-open">
            {t('resources.open')}
          </Button>
        )}
      </Space>
      {error && <ApiErrorAlert error={error} />}
      {read && <ResourceContents read={read} />}
    </Space>
  );
}

/**
 * A tool result's resource item (docs/using/resources.md#in-tool-results):
 * a `resource_link` as an item to open, an embedded `resource` shown as it
 * came. Undefined for any other item.
 */
export function resultResource(json: unknown, open: OpenResource | undefined) {
  if (isLink(json)) return <ResourceLink link={json} open={open} />;
  if (isEmbedded(json)) {
    const { uri, mimeType, text, blob } = json.resource;
    const item = typeof text === 'string' ? { uri, text, ...(mimeType ? { mimeType } : {}) } : { uri, blob: blob!, ...(mimeType ? { mimeType } : {}) };
    return (
      <div data-testid="result-resource-embedded">
        <ResourceContents read={{ serverId: '', uri, contents: [item] }} />
      </div>
    );
  }
  return undefined;
}

/** One tool-result item as a component (lazily loaded by the chat's tool card): what resultResource shows, else nothing. */
export function ResultResourceItem({ json, open }: { json: unknown; open: OpenResource | undefined }) {
  return resultResource(json, open) ?? null;
}
