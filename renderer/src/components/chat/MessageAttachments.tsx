import { FileTextOutlined } from '@ant-design/icons';
import type { Attachment } from '../../../../src/shared/chat';
import { api } from '../../api/client';
import { ownValue } from '../../api/ownValue';
import { sizeText } from './DraftAttachments';
import { useRowWords } from './rowContext';
import '../../i18n/load/chat';

/**
 * The files a sent message carries (docs/using/chat.md#attachments): images as thumbnails
 * that open full size, documents as chips with their name and size (and,
 * when the text was cut, how much the model got) that save the original file.
 */
export function MessageAttachments({ attachments, artifactUrls }: { attachments: readonly Attachment[]; artifactUrls: Readonly<Record<string, string>> }) {
  const { t, word } = useRowWords();
  return (
    <div className="msg-attachments" data-testid="message-attachments">
      {attachments.map((attachment) => {
        if (attachment.kind === 'image') {
          const url = ownValue(artifactUrls, attachment.artifact);
          if (url === undefined)
            return (
              <span key={attachment.artifact} className="attachment-chip" data-testid="message-attachment-missing" title={attachment.name}>
                {attachment.name} · {word('chat.attach.imageMissing')}
              </span>
            );
          return (
            <a key={attachment.artifact} href={api.resolveUrl(url)} target="_blank" rel="noreferrer" title={attachment.name} data-testid="message-attachment-image">
              <img className="msg-attachment-image" src={api.resolveUrl(url)} alt={attachment.name} />
            </a>
          );
        }
        const body = (
          <>
            <FileTextOutlined className="attachment-chip-icon" />
            <span className="attachment-chip-text">
              <span className="attachment-chip-name">{attachment.name}</span>
              <span className="attachment-chip-size">
                {sizeText(attachment.byteLength)}
                {attachment.totalChars !== undefined ? ` · ${t('chat.attach.cut', { chars: attachment.chars.toLocaleString(), total: attachment.totalChars.toLocaleString() })}` : ''}
              </span>
            </span>
          </>
        );
        // The original file, saved under the name the user gave it (served with a sandboxing CSP: an HTML file runs nothing).
        const original = attachment.original === undefined ? undefined : ownValue(artifactUrls, attachment.original);
        if (original === undefined)
          return (
            <span key={attachment.artifact} className="attachment-chip" data-testid="message-attachment-document" title={attachment.name}>
              {body}
            </span>
          );
        return (
          <a
            key={attachment.artifact}
            className="attachment-chip"
            data-testid="message-attachment-document"
            href={api.resolveUrl(original)}
            download={attachment.name}
            title={t('chat.attach.openOriginal', { name: attachment.name })}
          >
            {body}
          </a>
        );
      })}
    </div>
  );
}
