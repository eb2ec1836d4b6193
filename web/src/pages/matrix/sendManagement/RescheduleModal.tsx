/** Reschedule a task (task_time_save): replans the items not yet published. */
import { DatePicker, Form, InputNumber, Radio, Space, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import TimeZoneNote from '@/components/TimeZoneNote';
import { merchantToday } from '@/utils/format';
import { matrixKeys, rescheduleTask } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { Task, TimeMode } from '@/api/matrix/types';
import ModalForm from '@/components/ModalForm';
import { useMatrixT } from '../i18n';
import { atField } from '../shared/errors';
import { DAYS_MAX, PER_ACCOUNT_DAY, timesNeeded, timesProblem, TIME_MODES } from '../rules';

interface Values {
  time_mode: TimeMode;
  start_date: Dayjs;
  daily_quantity: number;
  days: number;
  times: Array<Dayjs | null>;
}

export default function RescheduleModal({ task, onClose, onSaved }: { task: Task | null; onClose: () => void; onSaved: (t: Task) => void }) {
  const { t } = useMatrixT();
  const [form] = Form.useForm<Values>();
  const save = useWrite(({ body, platform }: { body: Parameters<typeof rescheduleTask>[0]; platform?: Task['platform'] }) => rescheduleTask(body, platform), matrixKeys.all);
  const mode = (Form.useWatch('time_mode', form) ?? task?.time_mode ?? 'random') as TimeMode;
  const daily = (Form.useWatch('daily_quantity', form) ?? task?.daily_quantity ?? 1) as number;
  const need = timesNeeded(mode, daily);
  const today = merchantToday();

  return (
    <ModalForm<Values>
      open={task !== null}
      title={t('detail.rescheduleTitle', { name: task?.name ?? '' })}
      form={form}
      initialValues={
        task
          ? {
              time_mode: task.time_mode,
              start_date: task.start_date && dayjs(task.start_date).isAfter(today) ? dayjs(task.start_date) : today,
              daily_quantity: task.daily_quantity || 1,
              days: task.days || 1,
              times: [],
            }
          : undefined
      }
      onCancel={onClose}
      onSubmit={async (v) => {
        if (!task) return;
        const times = (v.times ?? []).slice(0, timesNeeded(v.time_mode, v.daily_quantity)).filter(Boolean).map((d) => (d as Dayjs).format('HH:mm'));
        onSaved(
          await atField(
            save.mutateAsync({
              body: { id: task.id, time_mode: v.time_mode, start_date: dayjs(v.start_date).format('YYYY-MM-DD'), daily_quantity: v.daily_quantity, days: v.days, times },
              platform: task.platform,
            }),
          ),
        );
      }}
      testId="reschedule"
    >
      <Form.Item name="time_mode" label={t('form.timeMode')}>
        <Radio.Group optionType="button" options={TIME_MODES.map((m) => ({ value: m, label: t(`timeMode.${m}`) }))} onChange={() => form.setFieldsValue({ times: [] })} />
      </Form.Item>
      <Space wrap align="start">
        <Form.Item name="start_date" label={t('form.startDate')} rules={[{ required: true, message: t('rules.startDateRequired') }]}>
          <DatePicker allowClear={false} />
        </Form.Item>
        <Form.Item name="daily_quantity" label={t('form.dailyQuantity')} rules={[{ required: true, type: 'number', min: 1, max: PER_ACCOUNT_DAY, message: t('rules.dailyRange', { max: PER_ACCOUNT_DAY }) }]}>
          <InputNumber<number> min={1} max={PER_ACCOUNT_DAY} precision={0} />
        </Form.Item>
        <Form.Item name="days" label={t('form.days')} rules={[{ required: true, type: 'number', min: 1, max: DAYS_MAX, message: t('rules.daysRange', { max: DAYS_MAX }) }]}>
          <InputNumber<number> min={1} max={DAYS_MAX} precision={0} />
        </Form.Item>
      </Space>
      {need ? (
        <Form.List name="times">
          {() => (
            <Form.Item
              label={mode === 'timed' ? t('form.timedTime') : t('form.specifiedTimes', { count: need })}
              required
              help={(() => {
                const list = ((form.getFieldValue('times') ?? []) as Array<Dayjs | null>).map((d) => (d ? d.format('HH:mm') : null));
                const p = timesProblem(mode, daily, list);
                return p === 'repeated' ? t('rules.timesRepeated') : undefined;
              })()}
            >
              <Space wrap>
                {Array.from({ length: need }, (_, i) => (
                  <Form.Item key={i} name={i} noStyle rules={[{ required: true, message: t('rules.timesMissing', { count: need }) }]}>
                    <TimePicker format="HH:mm" needConfirm={false} data-testid={`reschedule-time-${i}`} />
                  </Form.Item>
                ))}
              </Space>
            </Form.Item>
          )}
        </Form.List>
      ) : null}
      <TimeZoneNote />
    </ModalForm>
  );
}
