import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { feedback } from '@/utils/feedback';
import { ChunkLoadError } from './lazy';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** errorElement of every route: a toast titled "route error" with the message, and a page to recover. */
export default function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const chunk = error instanceof ChunkLoadError;
  const text = describe(error);

  useEffect(() => {
    if (!chunk) feedback.notifyError(t('route.errorTitle'), text);
  }, [chunk, text, t]);

  return (
    <Result
      status="error"
      title={chunk ? t('route.chunkFailed') : t('route.errorTitle')}
      subTitle={text}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('route.reload')}
        </Button>
      }
    />
  );
}
