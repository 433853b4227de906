import { Button, Card, Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useApi } from '../../api/hooks';
import { lazy } from 'react';
import '../../i18n/load/apps';
import { PartSuspense } from '../../shell/lazyPart';

// Shown once, after the first model: loaded then, so the Apps page stays within its JS budget.
const ReadyAssistantOffer = lazy(() => import('../models/ReadyAssistantOffer').then((m) => ({ default: m.ReadyAssistantOffer })));

/**
 * First start: what to do next, until the user has a model. A model comes
 * first (nothing can chat without one), then an agent to chat with; plugins
 * add apps. Once a model exists, only the offer of a ready assistant stays,
 * until some agent can chat.
 */
export function Welcome() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const onApps = useLocation().pathname === '/apps';
  const models = useApi('models.list', {}, { refreshOn: ['models.changed'] });
  const agents = useApi('agents.list', {}, { refreshOn: ['agents.changed'] });
  if (!models.data) return null;
  if (models.data.models.length > 0)
    return (
      <PartSuspense fallback={null}>
        <ReadyAssistantOffer />
      </PartSuspense>
    );
  const hasAgent = (agents.data?.agents.length ?? 0) > 0;
  return (
    <Card size="small" data-testid="welcome" title={t('apps.welcome.title')}>
      <Typography.Paragraph type="secondary">{t('apps.welcome.intro')}</Typography.Paragraph>
      <Steps
        orientation="vertical"
        size="small"
        current={0}
        items={[
          {
            title: t('apps.welcome.model'),
            description: (
              <>
                <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
                  {t('apps.welcome.modelHelp')}
                </Typography.Paragraph>
                <Button type="primary" onClick={() => void navigate('/models')} data-testid="welcome-add-model">
                  {t('apps.welcome.addModel')}
                </Button>
              </>
            ),
          },
          {
            title: t('apps.welcome.agent'),
            description: (
              <>
                <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
                  {t(hasAgent ? 'apps.welcome.agentHelpHave' : 'apps.welcome.agentHelp')}
                </Typography.Paragraph>
                <Button onClick={() => void navigate(hasAgent ? '/chat' : '/agents')} data-testid="welcome-agent">
                  {t(hasAgent ? 'apps.welcome.toChat' : 'apps.welcome.toAgents')}
                </Button>
              </>
            ),
          },
          {
            title: t('apps.welcome.plugin'),
            // Install is a button of the Apps page: there it is "above"; elsewhere (the Chat page) the welcome leads there.
            description: onApps ? (
              t('apps.welcome.pluginHelp')
            ) : (
              <>
                <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
                  {t('apps.welcome.pluginHelpElsewhere')}
                </Typography.Paragraph>
                <Button onClick={() => void navigate('/apps')} data-testid="welcome-apps">
                  {t('apps.welcome.toApps')}
                </Button>
              </>
            ),
          },
        ]}
      />
    </Card>
  );
}
