import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CodeBlock } from '../ToolResultView';
import type { ResourceRead } from './resourceAsker';
import '../../i18n/load/resources';

/** The image types shown inline; any other blob is offered as a download, never rendered. */
const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** A blob as a file the browser saves (its bytes decoded here, never run or rendered). */
function downloadUrl(blob: string, mimeType: string | undefined): string {
  const bytes = Uint8Array.from(atob(blob), (c) => c.charCodeAt(0));
  return URL.createObjectURL(new Blob([bytes], { type: mimeType ?? 'application/octet-stream' }));
}

const fileName = (uri: string) => uri.split(/[/\\]/).filter(Boolean).pop() ?? 'resource';

/** What a read gave: text as text, an image as an image, anything else as a download; what the host cut is said. */
export function ResourceContents({ read }: { read: ResourceRead }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="resource-contents">
      {read.cut && <Alert type="info" showIcon title={t('resources.cut', { kept: read.cut.keptChars.toLocaleString(), total: read.cut.totalChars.toLocaleString(), blobs: read.cut.droppedBlobs })} />}
      {read.contents.map((item, index) => (
        <div key={`${item.uri}-${index}`}>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {item.uri} {item.mimeType ? `· ${item.mimeType}` : ''}
          </Typography.Text>
          {'text' in item ? (
            <CodeBlock maxHeight={360} testId="resource-text">
              {item.text}
            </CodeBlock>
          ) : item.mimeType && INLINE_IMAGES.has(item.mimeType) ? (
            <img data-testid="resource-image" src={`data:${item.mimeType};base64,${item.blob}`} alt={item.uri} style={{ maxWidth: '100%', maxHeight: 360, display: 'block' }} />
          ) : (
            <div>
              <a
                href="#"
                data-testid="resource-download"
                onClick={(event) => {
                  event.preventDefault();
                  const url = downloadUrl(item.blob, item.mimeType);
                  const link = document.createElement('a');
                  link.href = url;
                  link.download = fileName(item.uri);
                  link.click();
                  setTimeout(() => URL.revokeObjectURL(url), 10_000);
                }}
              >
                <DownloadOutlined /> {t('resources.download', { mimeType: item.mimeType ?? 'application/octet-stream' })}
              </a>
            </div>
          )}
        </div>
      ))}
    </Space>
  );
}
