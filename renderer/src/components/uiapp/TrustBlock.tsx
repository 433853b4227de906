import { Alert, Button, Popconfirm, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PluginView } from '../../../../src/shared/hostApi';
import { api } from '../../api/client';
import { useAction } from '../useAction';
import { formatCommandLine } from './commandLine';
import '../../i18n/load/apps';

type RunPlan = PluginView['runPlan'];

/** Each server as what will actually start: the exact command line, or the url it connects to. */
export function serverLaunchLines(plan: RunPlan): { serverName: string; line: string; env?: NonNullable<RunPlan['backendEnv']>; nodeRuntime?: RunPlan['servers'][number]['nodeRuntime'] }[] {
  return plan.servers.map((server) => ({ serverName: server.serverName, line: server.command ? formatCommandLine(server.command) : server.url, env: server.env, nodeRuntime: server.nodeRuntime }));
}

function FileList({ label, files }: { label: string; files: string[] }) {
  if (files.length === 0) return null;
  return (
    <div className="trust-section">
      <Typography.Text strong>{label}</Typography.Text>
      <ul className="trust-list">
        {files.map((file) => (
          <li key={file}>
            <Typography.Text code>{file}</Typography.Text>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The environment a process gets: what the plugin sets, as written, and the host variables passed on, by name. */
function EnvLine({ env }: { env: NonNullable<RunPlan['backendEnv']> }) {
  const { t } = useTranslation();
  return (
    <div className="trust-env" data-testid="run-plan-env">
      <Typography.Text type="secondary">{t('apps.trust.environment')} </Typography.Text>
      {env.set.map(({ name, value }) => (
        <Typography.Text code key={name}>
          {`${name}=${value}`}
        </Typography.Text>
      ))}
      {env.inherited.length > 0 ? <Typography.Text type="secondary"> {t('apps.trust.inherited', { names: env.inherited.join(', ') })}</Typography.Text> : null}
    </div>
  );
}

/** What in the plan runs code from outside the plugin folder (a PATH, a preload, a program elsewhere). */
export function RunWarnings({ plan }: { plan: RunPlan }) {
  const { t } = useTranslation();
  if (plan.warnings.length === 0) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={{ margin: '8px 0' }}
      data-testid="run-plan-warnings"
      title={t('apps.trust.warningsTitle')}
      description={
        <ul className="trust-list">
          {plan.warnings.map((warning) => (
            <li key={warning.message}>{warning.message}</li>
          ))}
        </ul>
      }
    />
  );
}

/** Exactly what a plugin would run once trusted (and, after a change, which files changed). */
export function RunPlanView({ plan }: { plan: RunPlan }) {
  const { t } = useTranslation();
  const servers = serverLaunchLines(plan);
  const nothing = servers.length === 0 && plan.pages.length === 0 && !plan.backend;
  if (nothing) return <Typography.Text type="secondary">{t('apps.trust.runsNothing')}</Typography.Text>;
  return (
    <div data-testid="run-plan">
      {servers.length > 0 ? (
        <div className="trust-section">
          <Typography.Text strong>{t('apps.trust.servers')}</Typography.Text>
          <ul className="trust-list">
            {servers.map((server) => (
              <li key={server.serverName}>
                <Typography.Text type="secondary">{server.serverName}: </Typography.Text>
                <Typography.Text code copyable={{ text: server.line }} data-testid="run-plan-command">
                  {server.line}
                </Typography.Text>
                {server.env ? <EnvLine env={server.env} /> : null}
                {server.nodeRuntime ? (
                  <div className="trust-env" data-testid="run-plan-node">
                    <Typography.Text type="secondary">{t(`apps.trust.node.${server.nodeRuntime}`)}</Typography.Text>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {plan.pages.length > 0 ? (
        <div className="trust-section">
          <Typography.Text strong>{t('apps.trust.pages')}</Typography.Text>
          <ul className="trust-list">
            {plan.pages.map((page) => (
              <li key={page.appId}>
                <Typography.Text type="secondary">{page.appId}: </Typography.Text>
                <Typography.Text code>{page.entry}</Typography.Text>
                {page.compact ? (
                  <>
                    {' '}
                    <Typography.Text type="secondary">{t('apps.trust.compact')} </Typography.Text>
                    <Typography.Text code>{page.compact}</Typography.Text>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {plan.backend ? (
        <div className="trust-section">
          <Typography.Text strong>{t('apps.trust.backend')}</Typography.Text> <Typography.Text code>{plan.backend}</Typography.Text>
          {plan.backendEnv ? <EnvLine env={plan.backendEnv} /> : null}
        </div>
      ) : null}
      <RunWarnings plan={plan} />
    </div>
  );
}

/**
 * Shown instead of anything that would run for an untrusted or changed
 * plugin: what trusting it would start, what changed, and the Trust button.
 */
export function TrustBlock({ plugin, onChanged }: { plugin: PluginView; onChanged?: () => void }) {
  const { t } = useTranslation();
  const { busy, run } = useAction(onChanged);
  const pluginId = plugin.id ?? '';
  const changed = plugin.trust.state === 'changed' ? plugin.trust.changes : undefined;
  const lines = serverLaunchLines(plugin.runPlan);

  const trust = () =>
    run(async () => {
      await api.call('plugins.trust', { pluginId });
      return t('apps.trust.done', { name: plugin.name ?? pluginId });
    });

  return (
    <Alert
      type="warning"
      showIcon
      className="trust-block"
      data-testid={`trust-block-${pluginId}`}
      title={changed ? t('apps.trust.changedTitle') : t('apps.trust.untrustedTitle')}
      description={
        <>
          <Typography.Paragraph style={{ marginBottom: 8 }}>{t('apps.trust.explain')}</Typography.Paragraph>
          <RunPlanView plan={plugin.runPlan} />
          {changed ? (
            <div data-testid="trust-changes">
              <FileList label={t('apps.trust.added')} files={changed.added} />
              <FileList label={t('apps.trust.removed')} files={changed.removed} />
              <FileList label={t('apps.trust.modified')} files={changed.modified} />
            </div>
          ) : null}
          <Popconfirm
            title={t('apps.trust.confirmTitle', { name: plugin.name ?? pluginId })}
            description={
              <div className="trust-confirm">
                {lines.length > 0 ? (
                  <>
                    <div>{t('apps.trust.confirmRuns')}</div>
                    <ul className="trust-list">
                      {lines.map((server) => (
                        <li key={server.serverName}>
                          <Typography.Text code>{server.line}</Typography.Text>
                          {server.env?.set.length ? <EnvLine env={{ set: server.env.set, inherited: [] }} /> : null}
                        </li>
                      ))}
                    </ul>
                  </>
                ) : null}
                <RunWarnings plan={plugin.runPlan} />
                <div>{t('apps.trust.confirmRights')}</div>
              </div>
            }
            okText={t('apps.trust.button')}
            cancelText={t('common.cancel')}
            onConfirm={trust}
          >
            <Button type="primary" icon={<SafetyCertificateOutlined />} loading={busy} disabled={!pluginId} data-testid={`trust-${pluginId}`} style={{ marginTop: 8 }}>
              {changed ? t('apps.trust.buttonAgain') : t('apps.trust.button')}
            </Button>
          </Popconfirm>
        </>
      }
    />
  );
}
