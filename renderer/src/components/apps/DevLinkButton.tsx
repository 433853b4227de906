import { useState } from 'react';
import { App as AntApp, Button, Input, Modal, Typography } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { HostApiResult } from '../../../../src/shared/hostApi';
import { api, toApiError, type ApiError } from '../../api/client';
import { ProblemList } from '../ProblemList';
import { RunPlanView, RunWarnings } from '../uiapp/TrustBlock';
import { ActionErrorAlert } from '../../shell/ActionErrorAlert';
import '../../i18n/load/apps';

type Preview = HostApiResult<'plugins.devPreview'>;

/**
 * Links a plugin folder in place for development (`chatos dev DIR`): the
 * path first, then exactly what it would run, then "Link and trust". While
 * linked, edits are trusted again by themselves and reload what runs.
 */
export function DevLinkButton({ onLinked }: { onLinked: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [open, setOpen] = useState(false);
  const [dir, setDir] = useState('');
  const [preview, setPreview] = useState<Preview>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();

  const close = () => {
    setOpen(false);
    setPreview(undefined);
    setError(undefined);
  };

  const step = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (caught) {
      setError(toApiError(caught));
    } finally {
      setBusy(false);
    }
  };

  const look = () =>
    step(async () => {
      const trimmed = dir.trim();
      if (!trimmed) throw new Error(t('apps.devLink.needPath'));
      setPreview(await api.call('plugins.devPreview', { dir: trimmed }));
    });

  const link = () =>
    step(async () => {
      const result = await api.call('plugins.devLink', { dir: preview!.dir });
      message.success(t('apps.devLink.done', { id: result.pluginId }));
      setDir('');
      close();
      onLinked();
    });

  const canLink = preview?.runPlan !== undefined;
  return (
    <>
      <Button icon={<LinkOutlined />} onClick={() => setOpen(true)} data-testid="dev-link">
        {t('apps.devLink.button')}
      </Button>
      <Modal
        open={open}
        title={t('apps.devLink.title')}
        okText={canLink ? t('apps.devLink.ok') : t('apps.devLink.look')}
        cancelText={t('common.cancel')}
        confirmLoading={busy}
        onOk={canLink ? link : look}
        onCancel={close}
        okButtonProps={{ 'data-testid': canLink ? 'dev-link-ok' : 'dev-link-look' } as Record<string, string>}
        width={640}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('apps.devLink.explain')}</Typography.Paragraph>
        <Input
          autoFocus
          value={dir}
          onChange={(event) => {
            setDir(event.target.value);
            setPreview(undefined);
          }}
          onPressEnter={canLink ? link : look}
          placeholder={t('apps.devLink.placeholder')}
          data-testid="dev-link-dir"
        />
        {preview?.runPlan ? (
          <div style={{ marginTop: 12 }} data-testid="dev-link-plan">
            <Typography.Paragraph strong>{t('apps.devLink.willRun', { id: preview.pluginId })}</Typography.Paragraph>
            <RunPlanView plan={preview.runPlan} />
            <RunWarnings plan={preview.runPlan} />
          </div>
        ) : null}
        {preview && !preview.runPlan ? <ProblemList problems={preview.problems} testId="dev-link-problems" /> : null}
        {error ? <ActionErrorAlert error={error} testId="dev-link-error" style={{ marginTop: 12 }} /> : null}
      </Modal>
    </>
  );
}
