import { CloseOutlined, FileTextOutlined, LoadingOutlined } from '@ant-design/icons';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, toApiError, type ApiError } from '../../api/client';
import { hostText } from '../../i18n/hostText';
import { useProblemTexts } from '../../i18n/problemTexts';
import { uploadAttachment } from './attachmentUpload';
import '../../i18n/load/chat';

/** A file in the message box before sending: uploading, read by the host (its id), or refused (why). */
export interface DraftAttachment {
  key: string;
  name: string;
  size: number;
  /** A local url of an image, for its thumbnail. */
  preview?: string;
  state: 'uploading' | 'ready' | 'error';
  /** An image (a picked or pasted one at once, a resource once the host read it): a model without vision does not see it. */
  image?: boolean;
  id?: string;
  error?: ApiError;
}

/** Bytes as a file size people read: 812 B, 14.2 KB, 3.1 MB. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

let nextKey = 0;

/**
 * The files attached in the message box: each is uploaded as soon as it is
 * added and the host's answer (its id, or why it cannot be sent) shown on
 * its chip; removing one tells the host to forget it.
 */
export function useDraftAttachments() {
  const [items, setItems] = useState<DraftAttachment[]>([]);
  const live = useRef(items);
  live.current = items;
  const update = (key: string, patch: Partial<DraftAttachment>) => setItems((all) => all.map((item) => (item.key === key ? { ...item, ...patch } : item)));

  const add = useCallback((files: readonly { file: File; name: string }[]) => {
    for (const { file, name } of files) {
      const key = `attachment-${nextKey++}`;
      const preview = file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined;
      setItems((all) => [...all, { key, name, size: file.size, state: 'uploading', ...(preview ? { preview, image: true } : {}) }]);
      uploadAttachment(file, name).then(
        (attachment) => {
          // Removed while it was uploading: the host forgets it too.
          if (!live.current.some((item) => item.key === key)) return void api.call('chat.detach', { id: attachment.id }).catch(() => undefined);
          update(key, { state: 'ready', id: attachment.id, image: attachment.kind === 'image' });
        },
        (error: unknown) => update(key, { state: 'error', error: toApiError(error) }),
      );
    }
  }, []);

  /** A server's resource, picked with @: the host reads it (checking the agent may) and keeps it like an uploaded file. */
  const addResource = useCallback((asker: { agentId: string; conversationId: string }, serverId: string, uri: string) => {
    const key = `attachment-${nextKey++}`;
    setItems((all) => [...all, { key, name: uri, size: 0, state: 'uploading' }]);
    api.call('chat.attachResource', { agentId: asker.agentId, conversationId: asker.conversationId, serverId, uri }).then(
      ({ attachment }) => {
        if (!live.current.some((item) => item.key === key)) return void api.call('chat.detach', { id: attachment.id }).catch(() => undefined);
        update(key, { state: 'ready', id: attachment.id, size: attachment.byteLength, image: attachment.kind === 'image' });
      },
      (error: unknown) => update(key, { state: 'error', error: toApiError(error) }),
    );
  }, []);

  const remove = useCallback((key: string) => {
    const item = live.current.find((i) => i.key === key);
    if (item?.id) void api.call('chat.detach', { id: item.id }).catch(() => undefined);
    if (item?.preview) URL.revokeObjectURL(item.preview);
    setItems((all) => all.filter((i) => i.key !== key));
  }, []);

  /** After sending: the chips go (the host took the files). */
  const clear = useCallback(() => {
    for (const item of live.current) if (item.preview) URL.revokeObjectURL(item.preview);
    setItems([]);
  }, []);

  useEffect(() => () => clear(), [clear]);

  return {
    items,
    add,
    addResource,
    remove,
    clear,
    ids: items.flatMap((item) => (item.state === 'ready' && item.id ? [item.id] : [])),
    uploading: items.some((item) => item.state === 'uploading'),
  };
}

/** The chips above the message box: name, size, a thumbnail for an image, a spinner while uploading, the reason when refused, remove. */
export function DraftAttachmentChips({ items, onRemove }: { items: readonly DraftAttachment[]; onRemove(key: string): void }) {
  const { t } = useTranslation();
  useProblemTexts(items.some((item) => item.error !== undefined));
  if (!items.length) return null;
  return (
    <div className="composer-attachments" data-testid="composer-attachments">
      {items.map((item) => {
        const error = item.error ? hostText(item.error) : undefined;
        return (
          <div key={item.key} className={`attachment-chip attachment-chip-${item.state}`} data-testid="attachment-chip" data-state={item.state} title={item.name}>
            {item.preview ? <img className="attachment-chip-thumb" src={item.preview} alt="" /> : <FileTextOutlined className="attachment-chip-icon" />}
            <span className="attachment-chip-text">
              <span className="attachment-chip-name">{item.name}</span>
              <span className="attachment-chip-size">
                {item.state === 'uploading' ? (
                  <>
                    <LoadingOutlined /> {t('chat.attach.uploading')}
                  </>
                ) : (
                  sizeText(item.size)
                )}
              </span>
              {error && (
                <span className="attachment-chip-reason" data-testid="attachment-error">
                  {t('chat.attach.refused', { message: error.message })}
                  {error.hint ? ` — ${error.hint}` : ''}
                </span>
              )}
            </span>
            <button
              type="button"
              className="attachment-chip-remove"
              aria-label={t('chat.attach.remove', { name: item.name })}
              title={t('chat.attach.remove', { name: item.name })}
              onClick={() => onRemove(item.key)}
              data-testid="attachment-remove"
            >
              <CloseOutlined />
            </button>
          </div>
        );
      })}
    </div>
  );
}
