import { App as AntApp, Card, Empty, Input, Skeleton, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../api/hooks';
import { SETTING_SECTIONS, type SettingItem } from '../components/settings/settingItems';
import { matchesEitherLanguage } from '../shell/textSearch';
import { ApiErrorAlert } from '../shell/ApiErrorAlert';
import { i18n } from '../i18n';
import '../i18n/load/settings';

/**
 * Settings (docs/using/settings.md): everything the user sets for the
 * window, searchable in Chinese or English, each stored in the core (which
 * checks it), with links to the pages that own the rest. A search of any
 * length matches by its first 200 characters.
 */
export default function SettingsPage() {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const view = useApi('settings.get', {}, { refreshOn: ['settings.changed'] });
  const [query, setQuery] = useState('');
  const texts = useMemo(() => ({ zh: i18n.getFixedT('zh'), en: i18n.getFixedT('en') }), []);
  const sections = useMemo(
    () =>
      SETTING_SECTIONS.map((section) => ({ ...section, items: section.items.filter((item: SettingItem) => matchesEitherLanguage(query, [item.label, section.title], item.words, texts)) })).filter(
        (s) => s.items.length > 0,
      ),
    [query, texts],
  );

  return (
    <div className="page-stack settings-page" data-testid="page-settings">
      <Input.Search
        allowClear
        size="large"
        placeholder={t('settings.search')}
        aria-label={t('settings.search')}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        style={{ maxWidth: 560 }}
        data-testid="settings-search"
      />
      {view.error && <ApiErrorAlert error={view.error} onRetry={() => void view.reload()} />}
      {!view.data ? (
        !view.error && <Skeleton active />
      ) : sections.length === 0 ? (
        <Empty description={t('settings.none')} data-testid="settings-none" />
      ) : (
        sections.map((section) => (
          <Card key={section.id} size="small" title={t(section.title)} data-testid={`settings-section-${section.id}`}>
            {section.items.map((item) => (
              <div key={item.id} className="settings-item" data-testid={`setting-${item.id}`}>
                <div className="settings-item-text">
                  <Typography.Text strong>{t(item.label)}</Typography.Text>
                  {item.help && <Typography.Paragraph type="secondary">{t(item.help)}</Typography.Paragraph>}
                </div>
                <div className="settings-item-control">{item.render({ view: view.data!, notify: message })}</div>
              </div>
            ))}
          </Card>
        ))
      )}
    </div>
  );
}
