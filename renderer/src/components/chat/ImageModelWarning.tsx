import { Alert, Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../../i18n/load/chat';

/** The model a message goes to, and the chat models that read images, to switch to. */
export interface ImageSight {
  /** Absent: the agent has no model yet (the page says so elsewhere). */
  model?: { name: string; vision: boolean };
  /** Chat models that read images, the first few offered. */
  seeing: readonly { id: string; name: string }[];
  onSwitch(modelId: string): Promise<void> | void;
}

/** Models offered as buttons; more are on the model menu. */
const OFFERED = 3;

/**
 * Said above the message box as soon as an image is attached and the model
 * that answers cannot read images: the host would send it a note instead
 * (docs/rules/chat.md#images), and the user would not know. Offers the
 * models that can, one click each.
 */
export function ImageModelWarning({ sight }: { sight: ImageSight }) {
  const { t } = useTranslation();
  const [switching, setSwitching] = useState<string>();
  const { model, seeing, onSwitch } = sight;
  if (!model || model.vision) return null;
  const offered = seeing.slice(0, OFFERED);
  return (
    <Alert
      className="composer-image-warning"
      type="warning"
      showIcon
      data-testid="image-model-warning"
      title={t('chat.attach.noVision', { name: model.name })}
      description={
        offered.length ? (
          <Space wrap size="small">
            {t('chat.attach.switchTo')}
            {offered.map((m) => (
              <Button
                key={m.id}
                size="small"
                loading={switching === m.id}
                onClick={() => {
                  setSwitching(m.id);
                  void Promise.resolve(onSwitch(m.id)).finally(() => setSwitching(undefined));
                }}
                data-testid="image-model-switch"
                data-model={m.id}
              >
                {m.name}
              </Button>
            ))}
          </Space>
        ) : (
          t('chat.attach.noSeeingModel')
        )
      }
    />
  );
}
