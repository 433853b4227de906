import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={t('common.notFound.title')}
      subTitle={t('common.notFound.text')}
      extra={
        <Button type="primary" onClick={() => navigate('/apps')}>
          {t('common.notFound.back')}
        </Button>
      }
    />
  );
}
