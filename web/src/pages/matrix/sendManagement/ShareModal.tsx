/**
 * Douyin H5 share (PLATFORMS.md share schema; `/task.merchant_group_user/dy_share`): pick a video, a
 * title and topics, get a signed link shown as a QR code a customer scans (or an NFC tag carries), then
 * watch for the customer's post (the platform's webhook reports it; we poll every 2 s).
 */
import { Alert, Button, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { dyShare, fetchVideos, type ShareLink } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { ForwardVideo } from '@/api/matrix/types';
import { useDiscardGuard } from '@/components/ModalForm';
import QrCodeImage from '@/components/QrCodeImage';
import { formatTime } from '@/utils/format';
import { useMatrixT } from '../i18n';

export default function ShareModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useMatrixT();
  const [form] = Form.useForm<{ video_key: string; title: string; topics: string[] }>();
  const [videos, setVideos] = useState<ForwardVideo[]>([]);
  const [link, setLink] = useState<ShareLink | null>(null);
  const making = useWrite(dyShare);
  // once the link is made there is nothing left to lose
  const guard = useDiscardGuard({ form, open, onClose, enabled: !link });

  useEffect(() => {
    if (!open) return;
    setLink(null);
    form.resetFields();
    void Promise.all([fetchVideos({ source: 'library' }), fetchVideos({ source: 'material' })])
      .then(([a, b]) => setVideos([...a.rows, ...b.rows]))
      .catch(() => setVideos([]));
  }, [open, form]);

  // Poll the share until the customer has posted it.
  useEffect(() => {
    if (!link || link.state === 'published') return;
    const timer = setInterval(() => {
      void dyShare({ share_id: link.share_id })
        .then((s) => s.state === 'published' && setLink((l) => (l ? { ...l, ...s } : l)))
        .catch(() => undefined);
    }, 2000);
    return () => clearInterval(timer);
  }, [link]);

  const make = async () => {
    const v = await form.validateFields();
    try {
      setLink(await making.mutateAsync({ video_key: v.video_key, title: v.title.trim(), topics: v.topics ?? [] }));
    } catch {
      /* toasted by the request wrapper */
    }
  };

  return (
    <Modal open={open} title={t('share.title')} onCancel={guard.requestClose} footer={null} destroyOnHidden data-testid="share-modal">
      <Typography.Paragraph type="secondary">{t('share.help')}</Typography.Paragraph>
      {link?.schema ? (
        <Space direction="vertical" align="center" style={{ width: '100%' }}>
          <QrCodeImage value={link.schema} size={180} testId="share-qr" />
          <Typography.Link href={link.schema} data-testid="share-open">
            {t('share.open')}
          </Typography.Link>
          {link.expires_at ? <Typography.Text type="secondary">{t('share.expires', { time: formatTime(link.expires_at) })}</Typography.Text> : null}
          {link.state === 'published' ? (
            <Alert type="success" showIcon message={t('share.published', { item: link.item_id })} data-testid="share-published" />
          ) : (
            <Alert type="info" showIcon message={t('share.waiting')} data-testid="share-waiting" />
          )}
        </Space>
      ) : (
        <Form form={form} layout="vertical" {...guard.captureProps}>
          <Form.Item name="video_key" label={t('share.video')} rules={[{ required: true }]}>
            <Select
              showSearch
              optionFilterProp="label"
              options={videos.map((v) => ({ value: v.key, label: v.name }))}
              data-testid="share-video"
            />
          </Form.Item>
          <Form.Item name="title" label={t('share.titleLabel')} rules={[{ required: true, whitespace: true }, { max: 50 }]}>
            <Input showCount maxLength={50} data-testid="share-title" />
          </Form.Item>
          <Form.Item name="topics" label={t('share.topics')} rules={[{ required: true }]}>
            <Select mode="tags" tokenSeparators={[',', '，', ' ']} data-testid="share-topics" />
          </Form.Item>
          <Button type="primary" loading={making.isPending} onClick={() => void make()} data-testid="share-make">
            {t('share.make')}
          </Button>
        </Form>
      )}
    </Modal>
  );
}
