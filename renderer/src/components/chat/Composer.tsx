import { PaperClipOutlined, SendOutlined, StopOutlined } from '@ant-design/icons';
import { Button, Input, Tooltip, Typography, type GetRef } from 'antd';
import { memo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageCommand } from '../../shell/keys/commands';
import { pastedName } from './attachmentUpload';
import { composerKey } from './composerKeys';
import { DraftAttachmentChips, useDraftAttachments } from './DraftAttachments';
import { ImageModelWarning, type ImageSight } from './ImageModelWarning';
import { useSlashCommands, type SlashScope } from './slashPrompts/SlashPrompts';
import { MentionButton, mentionTyped, useMentionTarget } from '../resources/MentionButton';
import '../../i18n/load/chat';

/** What the file picker offers (the host decides what it reads: docs/using/chat.md#attachments). */
const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,.txt,.md,.markdown,.html,.htm,.pdf';

/**
 * Where the user writes. Enter sends, Shift+Enter starts a new line (and
 * Enter that ends an IME composition only ends it). While the agent answers,
 * Send becomes Stop. The text stays when sending fails. Files come by drop,
 * paste (images from the clipboard) or the paperclip; each shows as a chip
 * until sent, with why the host refused it if it did. With `slash` (the
 * conversation and its agent), `/` offers the agent's MCP prompts.
 */
export const Composer = memo(function Composer(props: {
  running: boolean;
  disabled?: boolean;
  onSend(text: string, attachments: string[]): Promise<boolean>;
  /** A message went (typed, or a slash command's prompt: with the conversation it went to, a new one from a new chat). */
  onSent?(started?: { conversationId: string }): void;
  onStop?(): void;
  stopping?: boolean;
  slash?: SlashScope;
  /** The agent (and conversation) whose servers' resources an @-mention offers; none: no @-mention. Plain strings, so the memo holds. */
  mentionAgentId?: string | undefined;
  mentionConversationId?: string;
  /** ↑ in the empty box: edit the last message sent (docs/using/keyboard.md); false when there is none to edit. */
  onEditLast?(): boolean;
  /** The model that answers, for a warning when an image is attached and it cannot read images. Stable, so the memo holds. */
  sight?: ImageSight;
}) {
  const { running, disabled, onSend, onSent, onStop, stopping, mentionAgentId, mentionConversationId, onEditLast } = props;
  const mention = useMentionTarget(mentionAgentId, mentionConversationId);
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const box = useRef<GetRef<typeof Input.TextArea>>(null);
  usePageCommand('focusComposer', disabled ? undefined : () => box.current?.focus());
  const attachments = useDraftAttachments();
  const [mentioning, setMentioning] = useState(false);
  const empty = !text.trim() && !attachments.ids.length;
  const slash = useSlashCommands(props.slash, text, {
    ready: !running && !disabled,
    onSent: (conversationId) => {
      setText('');
      onSent?.({ conversationId });
    },
  });

  const send = async () => {
    const value = text.trim();
    if (empty || sending || running || disabled || attachments.uploading) return;
    setSending(true);
    try {
      if (await onSend(value, attachments.ids)) {
        setText('');
        attachments.clear();
        onSent?.();
      }
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.onKeyDown(event)) return;
    if (composerKey(event, { running, empty: !text && !attachments.ids.length, onStop, onEditLast })) return event.preventDefault();
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (!files.length || disabled) return;
    // Pasted files are attached; pasted text goes into the box as usual.
    event.preventDefault();
    attachments.add(files.map((file, index) => ({ file, name: file.type.startsWith('image/') ? pastedName(file, index) : file.name })));
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    setDragging(false);
    if (!event.dataTransfer.files.length) return;
    event.preventDefault();
    if (disabled) return;
    attachments.add([...event.dataTransfer.files].map((file) => ({ file, name: file.name })));
  };

  return (
    <div
      className={`composer${dragging ? ' composer-dragging' : ''}`}
      data-testid="chat-composer"
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {props.sight && attachments.items.some((item) => item.image) && <ImageModelWarning sight={props.sight} />}
      <DraftAttachmentChips items={attachments.items} onRemove={attachments.remove} />
      {slash.menu}
      {slash.form}
      <Input.TextArea
        value={text}
        onChange={(event) => {
          // An @ typed as a word's start opens the resource picker (docs/using/resources.md#mention).
          if (mention && mentionTyped(text, event.target.value)) setMentioning(true);
          setText(event.target.value);
        }}
        ref={box}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        // The window's Mod+Shift shortcuts (new chat, regenerate…) work while writing here: no text key is one of them.
        data-app-shortcuts
        autoSize={{ minRows: 2, maxRows: 10 }}
        placeholder={t('chat.composer.placeholder')}
        disabled={disabled}
        data-testid="chat-input"
        aria-label={t('chat.composer.label')}
      />
      <div className="composer-bar">
        <Tooltip title={t('chat.attach.pick')}>
          <Button type="text" icon={<PaperClipOutlined />} disabled={disabled} onClick={() => picker.current?.click()} aria-label={t('chat.attach.pick')} data-testid="chat-attach" />
        </Tooltip>
        <input
          ref={picker}
          type="file"
          multiple
          accept={ACCEPT}
          hidden
          data-testid="chat-attach-input"
          onChange={(event) => {
            attachments.add([...(event.target.files ?? [])].map((file) => ({ file, name: file.name })));
            // The same file can be picked again after it was removed.
            event.target.value = '';
          }}
        />
        {mention && (
          <MentionButton
            target={mention}
            open={mentioning}
            disabled={disabled}
            onOpen={setMentioning}
            onPick={(serverId, uri) => {
              // The @ that opened it stands for the resource now attached.
              setText((value) => value.replace(/(^|\s)@$/, '$1'));
              attachments.addResource(mention, serverId, uri);
            }}
          />
        )}
        <Typography.Text type="secondary" className="composer-hint">
          {t('chat.composer.hint')}
        </Typography.Text>
        {running ? (
          <Button danger icon={<StopOutlined />} loading={stopping} onClick={onStop} data-testid="chat-stop">
            {t('chat.stop')}
          </Button>
        ) : (
          <Button type="primary" icon={<SendOutlined />} loading={sending} disabled={disabled || empty || attachments.uploading} onClick={() => void send()} data-testid="chat-send">
            {t('chat.send')}
          </Button>
        )}
      </div>
    </div>
  );
});
