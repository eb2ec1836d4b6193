/**
 * /visualIframe (zh-CN route table) — the finished-video library as a wall of players, framed from
 * `/embed/video_library` with a token from `/index/getVideoLibraryIframeToken` (two hours; asked again
 * before it ends). Read-only: managing the videos stays on /piece_rep.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Space, Spin } from 'antd';
import { Link } from 'react-router';
import { fetchIframeToken } from '@/api/content';
import PageHeader from '@/components/PageHeader';
import { useContentT } from '../i18n';

/** Ask for a new token this long before the old one ends. */
const RENEW_BEFORE_MS = 10 * 60_000;

export default function VisualIframePage() {
  const { t, i18n } = useContentT();
  const token = useQuery({
    queryKey: ['content', 'iframeToken'],
    queryFn: fetchIframeToken,
    refetchInterval: (q) => (q.state.data ? Math.max(60_000, q.state.data.expires_at - Date.now() - RENEW_BEFORE_MS) : false),
  });
  const lang = i18n.language.startsWith('en') ? 'en' : 'zh';
  return (
    <div data-testid="visual-iframe-page" style={{ display: 'flex', flexDirection: 'column', height: 'calc(100vh - 140px)' }}>
      <PageHeader
        title={t('common:menu.visualIframe')}
        subTitle={t('visual.subtitle')}
        extra={
          <Space>
            <Button onClick={() => void token.refetch()}>{t('visual.reload')}</Button>
            <Link to="/piece_rep">{t('visual.manage')}</Link>
          </Space>
        }
      />
      {token.data ? (
        <iframe
          key={token.data.token}
          title={t('common:menu.visualIframe')}
          src={`${token.data.url}&lang=${lang}`}
          style={{ flex: 1, width: '100%', border: 0, borderRadius: 8, background: '#f5f5f5' }}
          data-testid="visual-iframe"
        />
      ) : (
        <Spin />
      )}
    </div>
  );
}
