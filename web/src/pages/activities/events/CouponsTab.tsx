/**
 * The coupon desk: a redeem box (type or scan a code; the server's 422 — unknown, already redeemed,
 * expired — shows under the field) above the coupons, filtered by activity and the drawer, exported as shown.
 */
import { CheckCircleOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Input, Select, Space, Tooltip, Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { activitiesKeys, activityUrls, exportCoupons, redeemCoupon } from '@/api/activities';
import type { Coupon, CouponState } from '@/api/activities/types';
import { useWrite } from '@/api/mutations';
import { RequestError } from '@/api/request';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import type { FilterObj } from '@/components/FilterDrawer/model';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { COUPON_STATES, couponFilterFields } from '../filters';
import { useActivitiesT } from '../i18n';
import ExportButtons from '../shared/ExportButtons';
import { CouponStateTag } from '../shared/tags';
import { useActivityOptions } from '../shared/useActivityOptions';

/** Redeeming marks the area stale: the coupons and the activities' redeemed figures read again. */
export function RedeemBox() {
  const { t } = useActivitiesT();
  const [form] = Form.useForm<{ code: string }>();
  const write = useWrite(redeemCoupon, activitiesKeys.all);
  // A second submit before the first answers (a scanner's Enter, then a click) would redeem the code
  // twice: the second answer, "already redeemed", then stood beside the first one's success.
  const inFlight = useRef(false);
  const [done, setDone] = useState<Coupon | null>(null);

  const redeem = async ({ code }: { code: string }) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setDone(null);
    try {
      const coupon = await write.mutateAsync(code);
      setDone(coupon);
      form.resetFields();
      feedback.success(t('redeem.success', { code: coupon.code }));
    } catch (e) {
      if (e instanceof RequestError && e.field) form.setFields([{ name: 'code', errors: [e.message] }]);
      else if (!(e instanceof RequestError && e.kind === 'aborted')) feedback.error(e instanceof Error ? e.message : String(e));
    } finally {
      inFlight.current = false;
    }
  };

  return (
    <Card size="small" title={t('redeem.title')} style={{ marginBottom: 16 }} data-testid="redeem-box">
      <Form form={form} layout="inline" onFinish={redeem} style={{ rowGap: 8 }}>
        <Form.Item name="code" rules={[{ required: true, whitespace: true, message: t('redeem.codeRequired') }]} style={{ minWidth: 320 }}>
          <Input allowClear autoComplete="off" placeholder={t('redeem.placeholder')} data-testid="redeem-code" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" icon={<CheckCircleOutlined />} loading={write.isPending} data-testid="redeem-submit">
            {t('redeem.submit')}
          </Button>
        </Form.Item>
      </Form>
      {done ? (
        <Alert
          type="success"
          showIcon
          style={{ marginTop: 12 }}
          title={t('redeem.done', { code: done.code })}
          description={
            <span data-testid="redeem-result-detail">
              {t('redeem.detail', { prize: done.prize_name, person: done.person, activity: done.activity_name })}
              {done.description ? ` · ${done.description}` : ''}
            </span>
          }
          data-testid="redeem-result"
        />
      ) : null}
    </Card>
  );
}

export default function CouponsTab() {
  const { t } = useActivitiesT();
  const { options, loading } = useActivityOptions();
  const [activityId, setActivityId] = useState<number | undefined>(undefined);
  const [code, setCode] = useState('');
  const [state, setState] = useState<CouponState | undefined>(undefined);
  const [filterObj, setFilterObj] = useState<FilterObj>({});

  const columns = useMemo<DataTableColumn<Coupon>[]>(
    () => [
      {
        title: t('coupon.code'),
        dataIndex: 'code',
        width: 160,
        render: (v: string) => (
          <Typography.Text code copyable data-testid={`coupon-code-${v}`}>
            {v}
          </Typography.Text>
        ),
      },
      { title: t('coupon.activity'), dataIndex: 'activity_name', width: 160 },
      {
        title: t('coupon.prize'),
        dataIndex: 'prize_name',
        width: 150,
        render: (v: string, row) => (row.description ? <Tooltip title={row.description}>{v}</Tooltip> : v),
      },
      { title: t('coupon.person'), dataIndex: 'person', width: 120, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
      { title: t('coupon.state'), dataIndex: 'state', width: 100, render: (_, row) => <CouponStateTag state={row.state} testId={`coupon-state-${row.code}`} /> },
      { title: t('coupon.issuedAt'), dataIndex: 'issued_at', width: 170, sorter: true, render: formatTime },
      { title: t('coupon.expiresAt'), dataIndex: 'expires_at', width: 170, render: formatTime },
      { title: t('coupon.redeemedAt'), dataIndex: 'redeemed_at', width: 170, render: formatTime },
      { title: t('coupon.redeemedBy'), dataIndex: 'redeemed_by', width: 120, render: (v: string) => v || '' },
    ],
    [t],
  );
  const filterFields = useMemo(() => couponFilterFields(t), [t]);
  const params = useMemo(() => {
    const p: Record<string, unknown> = {};
    if (activityId) p.activity_id = activityId;
    if (code) p.code = code;
    if (state) p.state = state;
    return Object.keys(p).length ? p : undefined;
  }, [activityId, code, state]);

  return (
    <>
      <RedeemBox />
      <DataTable<Coupon>
        id="coupons"
        queryKey={activitiesKeys.all}
        api={activityUrls.coupons}
        method="post"
        params={params}
        columns={columns}
        filterFields={filterFields}
        onFilterChange={setFilterObj}
        rowKey="id"
        scrollX={1320}
        toolbar={
          <Space wrap>
            <Select<number>
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              loading={loading}
              placeholder={t('draw.allActivities')}
              options={options}
              value={activityId}
              onChange={(v) => setActivityId(v ?? undefined)}
              style={{ width: 220 }}
              data-testid="coupons-activity"
            />
            <Select<CouponState>
              allowClear
              placeholder={t('coupon.allStates')}
              options={COUPON_STATES.map((s) => ({ value: s, label: t(`couponState.${s}`) }))}
              value={state}
              onChange={(v) => setState(v ?? undefined)}
              style={{ width: 130 }}
              data-testid="coupons-state"
            />
            <Input.Search allowClear placeholder={t('coupon.search')} onSearch={(v) => setCode(v.trim())} style={{ width: 200 }} data-testid="coupons-search" />
            <ExportButtons onExport={(format) => exportCoupons(format, { activity_id: activityId, state, code: code || undefined, filterObj })} />
          </Space>
        }
      />
    </>
  );
}
