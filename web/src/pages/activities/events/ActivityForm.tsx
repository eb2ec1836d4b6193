/**
 * The add / edit dialog of a lottery activity: name, time window (China time), who may draw and how
 * often, the public page's colour and rules, and the prizes (docs/api-activities.md). The prize list's
 * rules are checked live ("thanks for taking part X%") and again on save; a server 422 lands on its field.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, ColorPicker, Col, DatePicker, Form, Input, InputNumber, Radio, Row, Select, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { FormListFieldData } from 'antd/es/form/FormList';
import { useEffect, useMemo } from 'react';
import { activitiesKeys, addActivity, editActivity } from '@/api/activities';
import type { Activity, ActivityReq, PrizeKind } from '@/api/activities/types';
import { useWrite } from '@/api/mutations';
import ModalForm from '@/components/ModalForm';
import TimeZoneNote from '@/components/TimeZoneNote';
import { feedback } from '@/utils/feedback';
import { useActivitiesT } from '../i18n';
import {
  COLOR_RE,
  DEFAULT_COLOR,
  NAME_MAX,
  PER_DAY_MAX,
  PER_PERSON_MAX,
  PRIZE_DESCRIPTION_MAX,
  PRIZE_KINDS,
  PRIZE_LIMIT_MAX,
  PRIZE_NAME_MAX,
  PRIZES_MAX,
  RULES_MAX,
  STOCK_MAX,
  VALID_DAYS_MAX,
  WHO,
  activityToForm,
  charCount,
  emptyActivityForm,
  emptyPrize,
  formPathOf,
  formatOdds,
  oddsProblem,
  oddsTotal,
  prizesProblem,
  rangeProblem,
  stockProblem,
  thanksOdds,
  toActivityReq,
  type ActivityFormValues,
  type PrizeFormValues,
} from '../rules';
import { atFormField } from '../shared/errors';

export interface ActivityFormProps {
  open: boolean;
  /** null: a new activity. */
  activity: Activity | null;
  onClose: () => void;
  onSaved: (activity: Activity) => void;
}

const cell = { style: { marginBottom: 0 } };

/** The activity's window; the wrapper carries the test id (the picker would put it on both inputs). */
function WindowPicker({ value, onChange, placeholder }: { value?: ActivityFormValues['range']; onChange?: (v: ActivityFormValues['range']) => void; placeholder: [string, string] }) {
  return (
    <div data-testid="activity-form-range">
      <DatePicker.RangePicker
        value={value ?? null}
        onChange={(v) => onChange?.(v && v[0] && v[1] ? [v[0], v[1]] : null)}
        showTime={{ format: 'HH:mm' }}
        format="YYYY-MM-DD HH:mm"
        style={{ width: '100%' }}
        placeholder={placeholder}
      />
    </div>
  );
}

/** The page colour as '#RRGGBB' (no alpha). */
function HexColor({ value, onChange }: { value?: string; onChange?: (v: string) => void }) {
  return (
    <ColorPicker
      value={value || DEFAULT_COLOR}
      format="hex"
      disabledAlpha
      showText
      onChange={(color) => onChange?.(color.toHexString().slice(0, 7).toUpperCase())}
      data-testid="activity-form-color"
    />
  );
}

export default function ActivityForm({ open, activity, onClose, onSaved }: ActivityFormProps) {
  const { t } = useActivitiesT();
  const [form] = Form.useForm<ActivityFormValues>();
  const save = useWrite((req: ActivityReq) => (activity ? editActivity(activity.id, req) : addActivity(req)), activitiesKeys.all);
  const initialValues = useMemo(() => (activity ? activityToForm(activity) : emptyActivityForm()), [activity]);
  const prizes = Form.useWatch('prizes', form) as PrizeFormValues[] | undefined;
  const total = oddsTotal(prizes);
  const over = total > 100;

  // a list error shown after a save goes away as soon as the prizes are put right
  useEffect(() => {
    if (form.getFieldError(['prizes']).length) form.validateFields([['prizes']]).catch(() => undefined);
  }, [prizes, form]);

  const limitRule = (min: number, max: number, key: string) => ({
    validator: async (_: unknown, v: number | null) => {
      const p = rangeProblem(v, min, max);
      if (p === 'required') throw new Error(t('rules.required', { name: t(key) }));
      if (p) throw new Error(t('rules.between', { name: t(key), min, max }));
    },
  });

  /** Rules of a coupon prize's number cell; a `thanks` prize has none. */
  const couponRule = (index: number, min: number, max: number, key: string) => ({
    validator: async (_: unknown, v: number | null) => {
      if (form.getFieldValue(['prizes', index, 'kind']) !== 'coupon') return;
      await limitRule(min, max, key).validator(_, v);
    },
  });

  const changeKind = (index: number, kind: PrizeKind) => {
    const current = (form.getFieldValue(['prizes', index]) ?? {}) as PrizeFormValues;
    const fresh = emptyPrize(kind);
    form.setFieldValue(['prizes', index], {
      ...fresh,
      id: current.id,
      issued: current.issued,
      name: current.name,
      odds: current.odds,
      description: current.description,
    });
    void form.validateFields([
      ['prizes', index, 'stock'],
      ['prizes', index, 'per_person'],
      ['prizes', index, 'per_day'],
      ['prizes', index, 'valid_days'],
    ]).catch(() => undefined);
  };

  const prizeColumns = (remove: (index: number) => void): ColumnsType<FormListFieldData> => {
    const row = (f: FormListFieldData) => prizes?.[f.name];
    const isThanks = (f: FormListFieldData) => row(f)?.kind === 'thanks';
    const issued = (f: FormListFieldData) => row(f)?.issued ?? 0;
    return [
      {
        title: t('prize.name'),
        key: 'name',
        width: 170,
        render: (_, f) => (
          <>
            {/* kept for the request: the server matches prizes by id; issued bounds the stock */}
            <Form.Item name={[f.name, 'id']} hidden>
              <Input />
            </Form.Item>
            <Form.Item name={[f.name, 'issued']} hidden>
              <Input />
            </Form.Item>
          <Form.Item
            {...cell}
            name={[f.name, 'name']}
            rules={[
              { required: true, whitespace: true, message: t('rules.prizeNameRequired') },
              {
                validator: async (_r, v: string) => {
                  if (charCount(v?.trim()) > PRIZE_NAME_MAX) throw new Error(t('rules.tooLong', { name: t('prize.name'), max: PRIZE_NAME_MAX }));
                },
              },
            ]}
          >
            <Input placeholder={t('prize.namePlaceholder')} data-testid={`prize-name-${f.name}`} />
          </Form.Item>
          </>
        ),
      },
      {
        title: t('prize.kind'),
        key: 'kind',
        width: 170,
        render: (_, f) => (
          <Form.Item {...cell} name={[f.name, 'kind']}>
            <Select
              options={PRIZE_KINDS.map((k) => ({ value: k, label: t(`prizeKind.${k}`) }))}
              disabled={issued(f) > 0}
              onChange={(k: PrizeKind) => changeKind(f.name, k)}
              data-testid={`prize-kind-${f.name}`}
            />
          </Form.Item>
        ),
      },
      {
        title: t('prize.odds'),
        key: 'odds',
        width: 120,
        render: (_, f) => (
          <Form.Item
            {...cell}
            name={[f.name, 'odds']}
            rules={[
              {
                validator: async (_r, v: number | null) => {
                  const p = oddsProblem(v);
                  if (p) throw new Error(t(`rules.odds.${p}`));
                },
              },
            ]}
          >
            <InputNumber style={{ width: '100%' }} step={1} suffix="%" data-testid={`prize-odds-${f.name}`} />
          </Form.Item>
        ),
      },
      {
        title: t('prize.stock'),
        key: 'stock',
        width: 130,
        render: (_, f) => (
          <Form.Item
            {...cell}
            name={[f.name, 'stock']}
            extra={issued(f) > 0 ? t('prize.issued', { count: issued(f) }) : undefined}
            rules={[
              {
                validator: async (_r, v: number | null) => {
                  if (form.getFieldValue(['prizes', f.name, 'kind']) !== 'coupon') return;
                  const p = stockProblem(v, issued(f));
                  if (p === 'required') throw new Error(t('rules.required', { name: t('prize.stock') }));
                  if (p === 'range') throw new Error(t('rules.between', { name: t('prize.stock'), min: 1, max: STOCK_MAX }));
                  if (p === 'belowIssued') throw new Error(t('rules.stockBelowIssued', { issued: issued(f) }));
                },
              },
            ]}
          >
            <InputNumber style={{ width: '100%' }} min={0} precision={0} disabled={isThanks(f)} data-testid={`prize-stock-${f.name}`} />
          </Form.Item>
        ),
      },
      {
        title: t('prize.perPerson'),
        key: 'per_person',
        width: 100,
        render: (_, f) => (
          <Form.Item {...cell} name={[f.name, 'per_person']} rules={[couponRule(f.name, 1, PRIZE_LIMIT_MAX, 'prize.perPerson')]}>
            <InputNumber style={{ width: '100%' }} min={0} precision={0} disabled={isThanks(f)} data-testid={`prize-per-person-${f.name}`} />
          </Form.Item>
        ),
      },
      {
        title: t('prize.perDay'),
        key: 'per_day',
        width: 100,
        render: (_, f) => (
          <Form.Item {...cell} name={[f.name, 'per_day']} rules={[couponRule(f.name, 1, PRIZE_LIMIT_MAX, 'prize.perDay')]}>
            <InputNumber style={{ width: '100%' }} min={0} precision={0} disabled={isThanks(f)} data-testid={`prize-per-day-${f.name}`} />
          </Form.Item>
        ),
      },
      {
        title: t('prize.validDays'),
        key: 'valid_days',
        width: 110,
        render: (_, f) => (
          <Form.Item {...cell} name={[f.name, 'valid_days']} rules={[couponRule(f.name, 1, VALID_DAYS_MAX, 'prize.validDays')]}>
            <InputNumber style={{ width: '100%' }} min={0} precision={0} disabled={isThanks(f)} data-testid={`prize-valid-days-${f.name}`} />
          </Form.Item>
        ),
      },
      {
        title: t('prize.description'),
        key: 'description',
        width: 200,
        render: (_, f) => (
          <Form.Item
            {...cell}
            name={[f.name, 'description']}
            rules={[
              {
                validator: async (_r, v: string) => {
                  if (charCount(v?.trim()) > PRIZE_DESCRIPTION_MAX) throw new Error(t('rules.tooLong', { name: t('prize.description'), max: PRIZE_DESCRIPTION_MAX }));
                },
              },
            ]}
          >
            <Input placeholder={t('prize.descriptionPlaceholder')} data-testid={`prize-description-${f.name}`} />
          </Form.Item>
        ),
      },
      {
        title: '',
        key: 'remove',
        width: 48,
        fixed: 'right',
        render: (_, f) => (
          <Tooltip title={issued(f) > 0 ? t('prize.cannotRemove') : t('prize.remove')}>
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              disabled={issued(f) > 0}
              aria-label={t('prize.remove')}
              onClick={() => remove(f.name)}
              data-testid={`prize-remove-${f.name}`}
            />
          </Tooltip>
        ),
      },
    ];
  };

  return (
    <ModalForm<ActivityFormValues>
      open={open}
      form={form}
      width={1120}
      title={activity ? t('activity.editTitle', { name: activity.name }) : t('activity.addTitle')}
      initialValues={initialValues}
      onCancel={onClose}
      onSubmit={async (values) => {
        const req = toActivityReq(values);
        const saved = await atFormField(form, save.mutateAsync(req), formPathOf);
        feedback.success(t('common:savedSuccessfully'));
        onSaved(saved);
      }}
      testId="activity-form"
    >
      <div data-testid="activity-form">
      <Row gutter={16}>
        <Col xs={24} md={10}>
          <Form.Item
            name="name"
            label={t('activity.name')}
            rules={[
              { required: true, whitespace: true, message: t('rules.nameRequired') },
              {
                validator: async (_, v: string) => {
                  if (charCount(v?.trim()) > NAME_MAX) throw new Error(t('rules.tooLong', { name: t('activity.name'), max: NAME_MAX }));
                },
              },
            ]}
          >
            <Input showCount maxLength={NAME_MAX} data-testid="activity-form-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={14}>
          <Form.Item
            name="range"
            label={t('activity.window')}
            extra={<TimeZoneNote />}
            rules={[
              {
                validator: async (_, v: ActivityFormValues['range']) => {
                  if (!v?.[0] || !v?.[1]) throw new Error(t('rules.windowRequired'));
                  if (!v[1].isAfter(v[0])) throw new Error(t('rules.windowOrder'));
                },
              },
            ]}
          >
            <WindowPicker placeholder={[t('activity.startsAt'), t('activity.endsAt')]} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="who" label={t('activity.who')} extra={t('activity.whoHelp')}>
        <Radio.Group data-testid="activity-form-who">
          {WHO.map((w) => (
            <Radio key={w} value={w} data-testid={`activity-form-who-${w}`}>
              {t(`who.${w}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Row gutter={16}>
        <Col xs={12} md={6}>
          <Form.Item name="per_person" label={t('activity.perPerson')} tooltip={t('activity.perPersonHelp')} rules={[limitRule(1, PER_PERSON_MAX, 'activity.perPerson')]}>
            <InputNumber style={{ width: '100%' }} min={1} precision={0} data-testid="activity-form-per-person" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name="per_day"
            label={t('activity.perDay')}
            tooltip={t('activity.perDayHelp')}
            dependencies={['per_person']}
            rules={[
              limitRule(1, PER_DAY_MAX, 'activity.perDay'),
              ({ getFieldValue }) => ({
                validator: async (_, v: number | null) => {
                  const perPerson = getFieldValue('per_person') as number | null;
                  if (typeof v === 'number' && typeof perPerson === 'number' && v > perPerson) throw new Error(t('rules.perDayOverPerPerson'));
                },
              }),
            ]}
          >
            <InputNumber style={{ width: '100%' }} min={1} precision={0} data-testid="activity-form-per-day" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="color"
            label={t('activity.color')}
            tooltip={t('activity.colorHelp')}
            rules={[{ required: true, pattern: COLOR_RE, message: t('rules.color') }]}
          >
            <HexColor />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        name="rules_text"
        label={t('activity.rulesText')}
        rules={[
          {
            validator: async (_, v: string) => {
              if (charCount(v?.trim()) > RULES_MAX) throw new Error(t('rules.tooLong', { name: t('activity.rulesText'), max: RULES_MAX }));
            },
          },
        ]}
      >
        <Input.TextArea rows={3} showCount maxLength={RULES_MAX} placeholder={t('activity.rulesPlaceholder')} data-testid="activity-form-rules" />
      </Form.Item>
      <Form.Item label={t('activity.prizes')} required tooltip={t('activity.prizesHelp', { max: PRIZES_MAX })} style={{ marginBottom: 0 }}>
        <Form.List
          name="prizes"
          rules={[
            {
              validator: async (_, list: PrizeFormValues[] | undefined) => {
                const p = prizesProblem(list);
                if (p) throw new Error(t(`rules.prizes.${p}`, { max: PRIZES_MAX, total: formatOdds(oddsTotal(list)) }));
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <div data-testid="prizes">
              <Table<FormListFieldData>
                size="small"
                rowKey="key"
                pagination={false}
                dataSource={fields}
                columns={prizeColumns(remove)}
                scroll={{ x: 1150 }}
                onRow={(f) => ({ 'data-testid': `prize-row-${f.name}` }) as React.HTMLAttributes<HTMLElement>}
                locale={{ emptyText: t('prize.none') }}
              />
              <div style={{ display: 'flex', alignItems: 'center', gap: 16, marginTop: 8, flexWrap: 'wrap' }}>
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  disabled={fields.length >= PRIZES_MAX}
                  onClick={() => add(emptyPrize('coupon'))}
                  data-testid="prize-add"
                >
                  {t('prize.add')}
                </Button>
                <Typography.Text type={over ? 'danger' : 'secondary'} data-testid="prizes-thanks" data-total={formatOdds(total)}>
                  {over
                    ? t('prize.oddsOver', { total: formatOdds(total) })
                    : t('prize.thanks', { odds: formatOdds(thanksOdds(prizes)), total: formatOdds(total) })}
                </Typography.Text>
              </div>
              <div data-testid="prizes-errors">
                <Form.ErrorList errors={errors} />
              </div>
            </div>
          )}
        </Form.List>
      </Form.Item>
      </div>
    </ModalForm>
  );
}
