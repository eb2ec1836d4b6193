/**
 * /auditCheck — the operator's review queue (/system/audit, Administrator): tasks with their merchant,
 * submission time, SLA due time and overdue marker; a detail drawer with the items, each video playable
 * in place, approve (confirm) and reject (reason required).
 */
import { CheckOutlined, CloseOutlined, EyeOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Drawer, Form, Input, Popconfirm, Space, Spin, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { approveTask, fetchAuditDetail, matrixKeys, matrixUrls, rejectTask } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { AuditTask, Item, TaskPlatform } from '@/api/matrix/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import ModalForm, { FullscreenModal } from '@/components/ModalForm';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { auditFilterFields } from '../filters';
import { useMatrixT } from '../i18n';
import { allows, REASON_MAX } from '../rules';
import { atField } from '../shared/errors';
import { AccountCell, ItemStateTag, PlatformTag, ReviewTag } from '../shared/tags';

function AuditDetail({ id, onClose, onDecided }: { id: number | null; onClose: () => void; onDecided: () => void }) {
  const { t } = useMatrixT();
  const [rejecting, setRejecting] = useState(false);
  const approving = useWrite(approveTask, matrixKeys.all);
  const reject = useWrite(({ id, reason }: { id: number; reason: string }) => rejectTask(id, reason), matrixKeys.all);
  // the item whose video plays (reviewing a task means watching what it will publish)
  const [playing, setPlaying] = useState<Item | null>(null);
  const detail = useQuery({ queryKey: [...matrixKeys.all, 'audit', id], queryFn: () => fetchAuditDetail(id!), enabled: id !== null, staleTime: 0, gcTime: 0 });
  const task = detail.data?.task;
  // the review's buttons as the server offers them (only a task under review is decided)
  const canApprove = allows(task, 'approve');
  const canReject = allows(task, 'reject');

  const approve = async () => {
    if (!task) return;
    try {
      await approving.mutateAsync(task.id);
      feedback.success(t('audit.approved', { name: task.name }));
      onDecided();
    } catch {
      /* toasted */
    }
  };

  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={1000}
      destroyOnHidden
      title={task ? t('audit.detailTitle', { name: task.name }) : t('audit.detail')}
      data-testid="audit-detail"
      extra={
        task ? (
          <Space>
            <Popconfirm
              title={t('audit.approveConfirm', { name: task.name })}
              description={t('audit.approveHelp')}
              okText={t('audit.approve')}
              cancelText={t('common:cancel')}
              okButtonProps={{ 'data-testid': 'audit-approve-ok' } as never}
              onConfirm={approve}
              disabled={!canApprove}
            >
              <Button type="primary" icon={<CheckOutlined />} loading={approving.isPending} disabled={!canApprove} data-testid="audit-approve">
                {t('audit.approve')}
              </Button>
            </Popconfirm>
            <Button danger icon={<CloseOutlined />} disabled={!canReject} onClick={() => setRejecting(true)} data-testid="audit-reject">
              {t('audit.reject')}
            </Button>
          </Space>
        ) : null
      }
    >
      {detail.isLoading ? <Spin /> : null}
      {task ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Descriptions size="small" bordered column={{ xs: 1, sm: 2 }}>
            <Descriptions.Item label={t('audit.merchant')}>{task.merchant_name}</Descriptions.Item>
            <Descriptions.Item label={t('task.platform')}>
              <PlatformTag platform={task.platform} />
            </Descriptions.Item>
            <Descriptions.Item label={t('task.review')}>
              <ReviewTag row={task} testId="audit-detail-review" />
            </Descriptions.Item>
            <Descriptions.Item label={t('audit.submitted')}>{formatTime(task.created_at)}</Descriptions.Item>
            <Descriptions.Item label={t('form.titles')} span={2}>
              {task.titles}
            </Descriptions.Item>
            <Descriptions.Item label={t('form.topics')} span={2}>
              {(task.topics ?? []).map((s) => `#${s}`).join(' ')}
            </Descriptions.Item>
            <Descriptions.Item label={t('task.schedule')} span={2}>
              {t(`timeMode.${task.time_mode}`)} · {task.start_date} · {t('task.scheduleText', { daily: task.daily_quantity, days: task.days })}
            </Descriptions.Item>
          </Descriptions>
          {!canApprove && !canReject ? <Alert type="info" showIcon title={t('audit.decided', { state: t(`review.${task.review_state}`) })} /> : null}
          <Table<Item>
            size="small"
            rowKey="id"
            dataSource={detail.data?.items ?? []}
            pagination={{ pageSize: 20, size: 'small' }}
            data-testid="audit-items"
            scroll={{ x: 900 }}
            columns={[
              { title: t('item.account'), key: 'account', render: (_, r) => <AccountCell account={r.account} /> },
              {
                title: t('item.video'),
                key: 'video',
                render: (_, r) =>
                  r.video.src ? (
                    <Typography.Link onClick={() => setPlaying(r)} data-testid={`audit-play-${r.id}`} style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
                      {r.video.cover ? (
                        <img src={r.video.cover} alt="" style={{ width: 27, height: 36, objectFit: 'cover', borderRadius: 3 }} />
                      ) : (
                        <PlayCircleOutlined />
                      )}
                      {r.video.name}
                    </Typography.Link>
                  ) : (
                    r.video.name
                  ),
              },
              { title: t('item.title'), dataIndex: 'title', ellipsis: true },
              { title: t('item.scheduledAt'), dataIndex: 'scheduled_at', width: 170, render: formatTime },
              { title: t('item.state'), dataIndex: 'state', width: 110, render: (_, r) => <ItemStateTag item={r} /> },
            ]}
          />
        </Space>
      ) : null}
      <FullscreenModal
        open={playing !== null}
        title={playing ? t('audit.playTitle', { name: playing.video.name, account: playing.account.nickname }) : ''}
        onCancel={() => setPlaying(null)}
        footer={null}
        width={480}
        testId="audit-player"
        destroyOnHidden
      >
        {playing?.video.src ? (
          <div style={{ display: 'flex', justifyContent: 'center', background: '#000' }}>
            <video
              key={playing.video.src}
              src={playing.video.src}
              poster={playing.video.cover ?? undefined}
              controls
              autoPlay
              playsInline
              style={{ maxWidth: '100%', maxHeight: '70vh' }}
              data-testid="audit-video"
            />
          </div>
        ) : null}
      </FullscreenModal>
      <ModalForm<{ reason: string }>
        open={rejecting}
        title={t('audit.rejectTitle', { name: task?.name ?? '' })}
        onCancel={() => setRejecting(false)}
        onSubmit={async ({ reason }) => {
          if (!task) return;
          await atField(reject.mutateAsync({ id: task.id, reason: reason.trim() }));
          setRejecting(false);
          feedback.success(t('audit.rejected', { name: task.name }));
          onDecided();
        }}
        testId="audit-reject-dialog"
        okText={t('audit.reject')}
      >
        <Form.Item
          name="reason"
          label={t('audit.reason')}
          rules={[
            { required: true, whitespace: true, message: t('audit.reasonRequired') },
            { max: REASON_MAX, message: t('audit.reasonTooLong', { max: REASON_MAX }) },
          ]}
        >
          <Input.TextArea rows={4} maxLength={REASON_MAX} showCount data-testid="audit-reason" />
        </Form.Item>
      </ModalForm>
    </Drawer>
  );
}

export default function AuditCheckPage() {
  const { t } = useMatrixT();
  const [viewing, setViewing] = useState<number | null>(null);

  const columns = useMemo<DataTableColumn<AuditTask>[]>(
    () => [
      {
        title: t('task.name'),
        dataIndex: 'name',
        render: (v: string, row) => (
          <Typography.Link onClick={() => setViewing(row.id)} data-testid={`audit-name-${row.id}`}>
            {v}
          </Typography.Link>
        ),
      },
      { title: t('audit.merchant'), dataIndex: 'merchant_name', width: 160 },
      { title: t('task.platform'), dataIndex: 'platform', width: 110, render: (p: TaskPlatform) => <PlatformTag platform={p} /> },
      { title: t('task.accountsVideos'), key: 'av', width: 110, render: (_, row) => `${row.accounts} / ${row.videos}` },
      { title: t('audit.submitted'), dataIndex: 'created_at', width: 170, sorter: true, render: formatTime },
      { title: t('audit.dueAt'), dataIndex: 'review_due_at', width: 170, sorter: true, render: formatTime },
      { title: t('task.review'), dataIndex: 'review_state', width: 150, render: (_, row) => <ReviewTag row={row} /> },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 110,
        render: (_, row) => (
          <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => setViewing(row.id)} data-testid={`audit-open-${row.id}`}>
            {allows(row, 'approve') ? t('audit.review') : t('task.detail')}
          </Button>
        ),
      },
    ],
    [t],
  );
  const filterFields = useMemo(() => auditFilterFields(t), [t]);

  return (
    <div data-testid="audit-check-page">
      <PageHeader title={t('common:menu.auditCheck')} subTitle={t('audit.subtitle')} />
      <DataTable<AuditTask> id="audit" queryKey={matrixKeys.all} api={matrixUrls.audit} method="post" columns={columns} filterFields={filterFields} scrollX={1200} />
      <AuditDetail
        id={viewing}
        onClose={() => setViewing(null)}
        onDecided={() => setViewing(null)}
      />
    </div>
  );
}
