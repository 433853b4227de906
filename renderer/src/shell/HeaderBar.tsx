import { lazy, Suspense, useState } from 'react';
import { Badge, Button, Segmented, Space, Switch, Tooltip } from 'antd';
import { BellOutlined, MoonOutlined, SunOutlined, WarningOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApi } from '../api/hooks';
import type { Locale } from '../i18n';
import { usePending } from './questions';
import { usePreferences } from './preferences';

// Loaded the first time the bell is pressed; the first screen does not need it.
const ConfirmationsDrawer = lazy(() => import('./ConfirmationsDrawer'));

function ProblemsBadge() {
  const { t } = useTranslation();
  const problems = useApi('problems.list', {}, { refreshOn: ['problems.changed', 'plugins.changed', 'mcp.reloaded', 'registry.changed'] });
  const list = problems.data?.problems ?? [];
  const errors = list.filter((problem) => problem.severity === 'error').length;
  return (
    <Tooltip title={t('common.header.problems', { count: list.length, errors })}>
      <Link to="/problems" data-testid="header-problems" data-count={list.length} aria-label={t('common.header.problems', { count: list.length, errors })}>
        <Badge count={list.length} color={errors > 0 ? 'red' : 'orange'} size="small" showZero={false} overflowCount={999}>
          <Button type="text" icon={<WarningOutlined />} tabIndex={-1} />
        </Badge>
      </Link>
    </Tooltip>
  );
}

function ConfirmationsBadge() {
  const { t } = useTranslation();
  const { pending } = usePending('toolConfirmation');
  const [open, setOpen] = useState(false);
  const [everOpened, setEverOpened] = useState(false);
  return (
    <>
      <Tooltip title={t('common.header.confirmations', { count: pending.length })}>
        <Badge count={pending.length} size="small" overflowCount={99}>
          <Button
            type="text"
            icon={<BellOutlined />}
            onClick={() => {
              setOpen(true);
              setEverOpened(true);
            }}
            data-testid="header-confirmations"
            data-count={pending.length}
            aria-label={t('common.header.confirmations', { count: pending.length })}
          />
        </Badge>
      </Tooltip>
      {everOpened ? (
        <Suspense fallback={null}>
          <ConfirmationsDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

export function HeaderBar({ title }: { title: string }) {
  const { t } = useTranslation();
  const { theme, setTheme, locale, setLocale } = usePreferences();
  return (
    <div className="app-header-inner">
      <h1 className="app-header-title">{title}</h1>
      <Space size="middle" className="app-header-tools">
        <ProblemsBadge />
        <ConfirmationsBadge />
        <Segmented<Locale>
          size="small"
          value={locale}
          onChange={setLocale}
          options={[
            { label: '中文', value: 'zh' },
            { label: 'EN', value: 'en' },
          ]}
          data-testid="locale-switch"
          aria-label={t('common.header.language')}
        />
        <Tooltip title={theme === 'dark' ? t('common.header.lightTheme') : t('common.header.darkTheme')}>
          <Switch
            checked={theme === 'dark'}
            onChange={(dark) => setTheme(dark ? 'dark' : 'light')}
            checkedChildren={<MoonOutlined />}
            unCheckedChildren={<SunOutlined />}
            data-testid="theme-switch"
            aria-label={t('common.header.theme')}
          />
        </Tooltip>
      </Space>
    </div>
  );
}
