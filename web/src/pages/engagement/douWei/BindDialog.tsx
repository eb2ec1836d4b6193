/**
 * Binding a staff member's WeChat by QR code: a temporary QR code of the merchant's official account
 * (`msg.wxgzh/bind_qr`); the staff member scans it with WeChat (following the account first if they
 * do not), WeChat pushes the scan to our server and their openid is bound. The dialog polls
 * `msg.wxgzh/bind_state` until then, or until the code runs out.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Result, Space, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { engagementKeys, fetchWxBindState, startWxBind } from '@/api/engagement';
import type { WxStaff } from '@/api/engagement/types';
import { FullscreenModal } from '@/components/ModalForm';
import QrCodeImage from '@/components/QrCodeImage';
import { useEngagementT } from '../i18n';

export interface BindDialogProps {
  staff: WxStaff | null;
  /** The platforms are simulated: the QR code's page can be opened here to scan. */
  sandbox: boolean;
  onClose: () => void;
}

export default function BindDialog({ staff, sandbox, onClose }: BindDialogProps) {
  const { t } = useEngagementT();
  const qc = useQueryClient();
  const start = useMutation({ mutationFn: startWxBind });
  const { mutate, reset } = start;
  const userId = staff?.id;
  useEffect(() => {
    if (userId) mutate(userId);
    else reset();
  }, [userId, mutate, reset]);
  const scene = start.data?.scene;
  const state = useQuery({
    queryKey: ['engagement', 'wechat', 'bind', scene],
    queryFn: () => fetchWxBindState(scene ?? ''),
    enabled: Boolean(scene),
    refetchInterval: (q) => (q.state.data?.state === 'pending' || !q.state.data ? 2000 : false),
  });
  const current = state.data ?? start.data;
  useEffect(() => {
    if (current?.state === 'bound') void qc.invalidateQueries({ queryKey: engagementKeys.wechatStaff });
  }, [current?.state, qc]);

  return (
    <FullscreenModal open={staff !== null} title={t('wx.qr.title', { name: staff?.nickname ?? '' })} onCancel={onClose} footer={null} width={420} testId="wx-bind-dialog" destroyOnHidden>
      <Space orientation="vertical" align="center" style={{ width: '100%' }} data-testid="wx-bind-body" data-state={current?.state ?? (start.isError ? 'error' : 'loading')}>
        {start.isError ? <Alert type="error" showIcon title={start.error instanceof Error ? start.error.message : String(start.error)} data-testid="wx-bind-error" /> : null}
        {!current && start.isPending ? <Spin /> : null}
        {current && current.state !== 'bound' ? (
          <>
            <div style={{ opacity: current.state === 'expired' ? 0.25 : 1 }}>
              <QrCodeImage value={current.url} size={200} testId="wx-bind-qr" />
            </div>
            {sandbox ? (
              <a href={current.url} target="_blank" rel="noopener noreferrer" data-testid="wx-bind-link">
                {t('wx.qr.openSandbox')}
              </a>
            ) : null}
          </>
        ) : null}
        {current?.state === 'pending' ? (
          <Typography.Text type="secondary" data-testid="wx-bind-waiting">
            <Spin size="small" /> {t('wx.qr.scan', { name: staff?.nickname ?? '' })}
          </Typography.Text>
        ) : null}
        {current?.state === 'expired' ? (
          <Space orientation="vertical" align="center">
            <Alert type="warning" showIcon title={t('wx.qr.expired')} data-testid="wx-bind-expired" />
            <Button type="primary" loading={start.isPending} onClick={() => userId && mutate(userId)} data-testid="wx-bind-restart">
              {t('wx.qr.restart')}
            </Button>
          </Space>
        ) : null}
        {current?.state === 'bound' ? (
          <Result status="success" title={t('wx.qr.bound', { name: staff?.nickname ?? '' })} subTitle={current.openid} data-testid="wx-bind-done" extra={<Button onClick={onClose}>{t('wx.qr.close')}</Button>} />
        ) : null}
      </Space>
    </FullscreenModal>
  );
}
