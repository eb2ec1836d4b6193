/**
 * /clue_management and /clue_assign — leads (docs/api-engagement.md `msg.merchant_clue/*`): customers
 * with purchase intent or contact details from comments and private messages, their state, notes and
 * assignee; a staff member sees the leads assigned to them, `/clue_assign` sees all and assigns by hand.
 */
import { UserSwitchOutlined } from '@ant-design/icons';
import { Button, Descriptions, Dropdown, Form, Input, List, Select, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { addLeadNote, assignLead, engagementKeys, engagementUrls, fetchLeadStaff, setLeadState } from '@/api/engagement';
import type { Lead, LeadState } from '@/api/engagement/types';
import { useWrite } from '@/api/mutations';
import { useAccess } from '@/access/AccessContext';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import ModalForm from '@/components/ModalForm';
import FullscreenModal from '@/components/ModalForm/FullscreenModal';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { leadFilterFields } from '../filters';
import { useEngagementT } from '../i18n';

const STATE_COLORS: Record<string, string> = { new: 'blue', contacted: 'orange', converted: 'green', invalid: 'default' };

export default function LeadsPage() {
  const { t } = useEngagementT();
  const [noteForm] = Form.useForm<{ note: string }>();
  const [assignForm] = Form.useForm<{ assignee_id: number }>();
  const [viewing, setViewing] = useState<Lead | null>(null);
  const [assigning, setAssigning] = useState<Lead | null>(null);
  const mayAssign = useAccess().can('msg/merchant_clue/assign');
  const staff = useQuery({ queryKey: engagementKeys.leadStaff, queryFn: fetchLeadStaff, enabled: mayAssign });
  const moveWrite = useWrite(({ id, state }: { id: number; state: LeadState }) => setLeadState(id, state), engagementKeys.leads);
  const note = useWrite(({ id, text }: { id: number; text: string }) => addLeadNote(id, text), engagementKeys.leads);
  const assign = useWrite(({ id, assignee }: { id: number; assignee: number }) => assignLead(id, assignee), engagementKeys.leads);

  const move = async (row: Lead, state: LeadState) => {
    try {
      await moveWrite.mutateAsync({ id: row.id, state });
    } catch {
      /* toasted */
    }
  };

  const columns = useMemo<DataTableColumn<Lead>[]>(
    () => [
      {
        title: t('lead.name'),
        dataIndex: 'name',
        width: 150,
        render: (v: string, row) => (
          <Typography.Link onClick={() => setViewing(row)} data-testid={`lead-name-${row.id}`}>
            {v}
          </Typography.Link>
        ),
      },
      { title: t('lead.content'), dataIndex: 'content', width: 240 },
      { title: t('lead.source'), dataIndex: 'source', width: 140, render: (v: string, row) => `${t(`platform.${row.platform}`)} · ${t(`lead.sources.${v}`)}` },
      { title: t('lead.phone'), dataIndex: 'phone', width: 130 },
      { title: t('lead.wechat'), dataIndex: 'wechat', width: 130 },
      {
        title: t('lead.state'),
        dataIndex: 'state',
        width: 110,
        render: (v: string, row) => (
          <Tag color={STATE_COLORS[v]} data-testid={`lead-state-${row.id}`}>
            {t(`lead.states.${v}`)}
          </Tag>
        ),
      },
      {
        title: t('lead.assignee'),
        dataIndex: 'assignee_name',
        width: 120,
        render: (v: string, row) => <span data-testid={`lead-assignee-${row.id}`}>{v || t('lead.unassigned')}</span>,
      },
      { title: t('lead.time'), dataIndex: 'created_at', width: 170, sorter: true, render: (v: number) => formatTime(v) },
      {
        title: t('common:actions'),
        key: 'actions',
        width: 200,
        fixed: 'right',
        render: (_, row) => (
          <Space size={0}>
            {row.next_states.length > 0 && (
              <Dropdown
                menu={{
                  items: row.next_states.map((s) => ({ key: s, label: t('lead.move', { state: t(`lead.states.${s}`) }) })),
                  onClick: ({ key }) => void move(row, key as LeadState),
                }}
              >
                <Button type="link" size="small" data-testid={`lead-move-${row.id}`}>
                  {t('lead.state')}
                </Button>
              </Dropdown>
            )}
            {mayAssign && (
              <Button type="link" size="small" icon={<UserSwitchOutlined />} onClick={() => setAssigning(row)} data-testid={`lead-assign-${row.id}`}>
                {t('lead.assign')}
              </Button>
            )}
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, mayAssign],
  );
  const filterFields = useMemo(() => leadFilterFields(t), [t]);

  return (
    <div data-testid="leads-page">
      <PageHeader
        title={t('common:menu.clueManagement')}
        subTitle={t('lead.subtitle')}
      />
      <DataTable<Lead> id="leads" queryKey={engagementKeys.leads} api={engagementUrls.leads} exportApi={engagementUrls.export} exportName="leads" method="post" columns={columns} filterFields={filterFields} scrollX={1400} />
      <FullscreenModal open={!!viewing} title={viewing?.name} width={640} testId="lead-detail" footer={null} form={noteForm} onCancel={() => setViewing(null)}>
        {viewing && (
          <Descriptions column={1} size="small" style={{ marginBottom: 12 }}>
            <Descriptions.Item label={t('lead.content')}>{viewing.content}</Descriptions.Item>
            <Descriptions.Item label={t('lead.source')}>{`${t(`platform.${viewing.platform}`)} · ${viewing.account_name} · ${t(`lead.sources.${viewing.source}`)}`}</Descriptions.Item>
            <Descriptions.Item label={t('lead.state')}>{t(`lead.states.${viewing.state}`)}</Descriptions.Item>
          </Descriptions>
        )}
        <List
          size="small"
          header={t('lead.notes')}
          dataSource={viewing?.notes ?? []}
          renderItem={(n) => (
            <List.Item data-testid="lead-note">
              {formatTime(n.at)} {n.by}：{n.text}
            </List.Item>
          )}
        />
        <Form
          form={noteForm}
          onFinish={async (v) => {
            if (!viewing) return;
            try {
              setViewing(await note.mutateAsync({ id: viewing.id, text: v.note.trim() }));
              noteForm.resetFields();
            } catch {
              feedback.error(t('lead.noteRequired'));
            }
          }}
        >
          <Form.Item name="note" rules={[{ required: true, whitespace: true, message: t('lead.noteRequired') }, { max: 500 }]}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} placeholder={t('lead.notePlaceholder')} data-testid="lead-note-text" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={note.isPending} data-testid="lead-note-add">
            {t('lead.noteAdd')}
          </Button>
        </Form>
      </FullscreenModal>
      <ModalForm<{ assignee_id: number }>
        open={!!assigning}
        form={assignForm}
        title={t('lead.assignTitle')}
        testId="lead-assign-form"
        initialValues={{ assignee_id: assigning?.assignee_id ?? 0 }}
        onCancel={() => setAssigning(null)}
        onSubmit={async (v) => {
          if (!assigning) return;
          await assign.mutateAsync({ id: assigning.id, assignee: v.assignee_id });
          setAssigning(null);
        }}
      >
        <Form.Item name="assignee_id" label={t('lead.assignee')}>
          <Select options={[{ value: 0, label: t('lead.unassigned') }, ...(staff.data ?? []).map((s) => ({ value: s.id, label: s.nickname }))]} data-testid="lead-assign-select" />
        </Form.Item>
      </ModalForm>
    </div>
  );
}
