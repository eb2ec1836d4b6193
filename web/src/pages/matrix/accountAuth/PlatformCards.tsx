/** The six platform cards of /account_auth, each with its Authorize button and a sandbox notice. */
import { QrcodeOutlined, SafetyCertificateOutlined, KeyOutlined } from '@ant-design/icons';
import { useQueries } from '@tanstack/react-query';
import { Alert, Button, Card, Tag, Typography } from 'antd';
import { fetchForwardConfig, OAUTH_PLATFORMS, PLATFORMS, SESSION_PLATFORMS } from '@/api/matrix';
import type { Platform } from '@/api/matrix/types';
import { useMatrixT } from '../i18n';
import { PLATFORM_COLORS } from '../shared/tags';

export function authKindOf(p: Platform): 'oauth' | 'qr' | 'app_token' {
  if (OAUTH_PLATFORMS.includes(p)) return 'oauth';
  if (SESSION_PLATFORMS.includes(p)) return 'qr';
  return 'app_token';
}

const ICONS = { oauth: <SafetyCertificateOutlined />, qr: <QrcodeOutlined />, app_token: <KeyOutlined /> };

export default function PlatformCards({ onAuthorize, busy }: { onAuthorize: (p: Platform) => void; busy: Platform | null }) {
  const { t } = useMatrixT();
  // each platform's publishing config says whether it runs against the sandbox and how many accounts it has
  const configs = useQueries({
    queries: PLATFORMS.map((p) => ({ queryKey: ['matrix', 'forwardConfig', p], queryFn: () => fetchForwardConfig(p), retry: false, staleTime: 30_000 })),
  });
  return (
    <div className="cm-platform-cards" data-testid="platform-cards">
      {PLATFORMS.map((p, i) => {
        const kind = authKindOf(p);
        const config = configs[i]?.data;
        return (
          <Card key={p} size="small" className="cm-platform-card" data-testid={`platform-card-${p}`}>
            <div className="cm-platform-card-title">
              <Typography.Text strong style={{ fontSize: 16 }}>
                {t(`platform.${p}`)}
              </Typography.Text>
              <Tag color={PLATFORM_COLORS[p]}>{t(`authKind.${kind}`)}</Tag>
            </div>
            <Typography.Text type="secondary" style={{ fontSize: 12, flex: 1 }}>
              {t(`auth.help.${kind}`)}
            </Typography.Text>
            {config ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`platform-accounts-${p}`}>
                {t('auth.usable', { count: config.accounts?.length ?? 0 })}
              </Typography.Text>
            ) : null}
            {config?.sandbox ? <Alert type="warning" showIcon title={t('auth.sandbox')} data-testid={`sandbox-${p}`} style={{ padding: '2px 8px' }} /> : null}
            <Button type="primary" icon={ICONS[kind]} loading={busy === p} onClick={() => onAuthorize(p)} data-testid={`auth-${p}`}>
              {t('auth.authorize')}
            </Button>
          </Card>
        );
      })}
    </div>
  );
}
