import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** A page outside the user's menus: said plainly, instead of a page full of refused calls. */
export default function ForbiddenPage({ subTitle }: { subTitle?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title="403"
      subTitle={subTitle ?? `${t('route.forbidden')}. ${t('route.forbiddenHint')}`}
      data-testid="route-forbidden"
      extra={
        <Button type="primary" onClick={() => navigate('/', { replace: true })}>
          {t('route.backHome')}
        </Button>
      }
    />
  );
}
