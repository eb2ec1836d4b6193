/** The value editor of one filter row, by field type (SPEC §9 filter field types). */
import { DatePicker, Input, Radio, Select, Space } from 'antd';
import type { TimeRangePickerProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import DictSelect from '../DictSelect';
import { useWidgetsT } from '../i18n';
import {
  CUSTOM_DATE_PRESETS,
  effectiveType,
  presetRange,
  valueFormat,
  type CustomDatePreset,
  type FilterField,
  type FilterOption,
  type FilterValue,
} from './model';

export interface ValueInputProps {
  field: FilterField | undefined;
  value: FilterValue;
  onChange: (value: FilterValue) => void;
  testId: string;
}

const toDayjs = (v: unknown): Dayjs | null => {
  if (v === undefined || v === null || v === '') return null;
  const d = dayjs(String(v));
  return d.isValid() ? d : null;
};

function RemoteSelect({
  field,
  value,
  onChange,
  testId,
  placeholder,
}: {
  field: FilterField;
  value: FilterValue;
  onChange: (v: FilterValue) => void;
  testId: string;
  placeholder: string;
}) {
  const [options, setOptions] = useState<FilterOption[]>(field.extend?.data ?? []);
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const seq = useRef(0);

  const search = (text: string) => {
    const request = field.extend?.request;
    if (!request) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      const mine = ++seq.current;
      setLoading(true);
      try {
        const list = await request(text);
        if (mine === seq.current) setOptions(Array.isArray(list) ? list : []);
      } catch {
        if (mine === seq.current) setOptions([]);
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    }, 300);
  };

  useEffect(() => {
    search('');
    return () => clearTimeout(timer.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [field.value]);

  return (
    <Select
      style={{ width: '100%' }}
      allowClear
      mode={field.extend?.multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: search }}
      loading={loading}
      placeholder={placeholder}
      value={value as never}
      onChange={(v) => onChange(v as FilterValue)}
      options={options}
      data-testid={testId}
    />
  );
}

export default function ValueInput({ field, value, onChange, testId }: ValueInputProps) {
  const { t } = useWidgetsT();
  if (!field) return <Input disabled placeholder={t('filter.chooseFieldFirst')} data-testid={testId} />;
  const placeholder = field.placeholder ?? t('filter.valuePlaceholder');
  const kind = effectiveType(field);
  const format = valueFormat(field);
  const rangePresets: TimeRangePickerProps['presets'] = (['today', 'yesterday', 'last7days', 'last30days', 'thisMonth'] as CustomDatePreset[]).map(
    (p) => {
      const [from, to] = presetRange(p);
      return { label: t(`filter.presets.${p}`), value: kind === 'datetimerange' ? [from, to.endOf('day')] : [from, to] };
    },
  );

  switch (kind) {
    case 'select':
      if (field.extend?.dict)
        return (
          <DictSelect
            name={field.extend.dict}
            multiple={field.extend.multiple}
            style={{ width: '100%' }}
            placeholder={placeholder}
            value={value as never}
            onChange={(v) => onChange(v as FilterValue)}
            testId={testId}
          />
        );
      if (field.extend?.remote) return <RemoteSelect field={field} value={value} onChange={onChange} testId={testId} placeholder={placeholder} />;
      return (
        <Select
          style={{ width: '100%' }}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          mode={field.extend?.multiple ? 'multiple' : undefined}
          placeholder={placeholder}
          value={value as never}
          onChange={(v) => onChange(v as FilterValue)}
          options={field.extend?.data ?? []}
          data-testid={testId}
        />
      );
    case 'date':
    case 'datetime':
      return (
        <DatePicker
          style={{ width: '100%' }}
          showTime={kind === 'datetime'}
          placeholder={placeholder}
          value={toDayjs(value)}
          onChange={(d) => onChange(d ? d.format(format) : undefined)}
          data-testid={testId}
        />
      );
    case 'daterange':
    case 'datetimerange': {
      const range = Array.isArray(value) ? value : [];
      return (
        <div data-testid={testId}>
          <DatePicker.RangePicker
            style={{ width: '100%' }}
            showTime={kind === 'datetimerange'}
            presets={rangePresets}
            value={range.length === 2 ? [toDayjs(range[0]), toDayjs(range[1])] : null}
            onChange={(dates) => onChange(dates && dates[0] && dates[1] ? [dates[0].format(format), dates[1].format(format)] : undefined)}
          />
        </div>
      );
    }
    case 'customDate': {
      const preset = typeof value === 'string' ? value : Array.isArray(value) ? 'custom' : undefined;
      return (
        <Space.Compact style={{ width: '100%' }} data-testid={testId}>
          <Select
            style={{ width: preset === 'custom' ? 130 : '100%' }}
            placeholder={placeholder}
            value={preset}
            onChange={(p: string) => onChange(p === 'custom' ? [] : p)}
            options={[...CUSTOM_DATE_PRESETS, 'custom'].map((p) => ({ value: p, label: t(`filter.presets.${p}`) }))}
          />
          {preset === 'custom' ? (
            <DatePicker.RangePicker
              style={{ flex: 1 }}
              value={Array.isArray(value) && value.length === 2 ? [toDayjs(value[0]), toDayjs(value[1])] : null}
              onChange={(dates) => onChange(dates && dates[0] && dates[1] ? [dates[0].format(format), dates[1].format(format)] : [])}
            />
          ) : null}
        </Space.Compact>
      );
    }
    case 'switch':
      if (field.extend?.dict)
        return (
          <DictSelect
            name={field.extend.dict}
            style={{ width: '100%' }}
            placeholder={placeholder}
            value={value === undefined ? undefined : String(value)}
            onChange={(v) => onChange(v === undefined || v === null ? undefined : String(v))}
            testId={testId}
          />
        );
      return (
        <Radio.Group
          value={value === undefined ? undefined : String(value)}
          onChange={(e) => onChange(e.target.value as string)}
          optionType="button"
          options={[
            { value: '1', label: t('filter.on') },
            { value: '0', label: t('filter.off') },
          ]}
          data-testid={testId}
        />
      );
    case 'tags':
      return (
        <Select
          style={{ width: '100%' }}
          mode="tags"
          open={false}
          suffixIcon={null}
          tokenSeparators={[',']}
          placeholder={field.placeholder ?? t('filter.tagsPlaceholder')}
          value={(Array.isArray(value) ? value : []) as never}
          onChange={(v) => onChange(v as FilterValue)}
          data-testid={testId}
        />
      );
    case 'text':
    default:
      return (
        <Input
          allowClear
          placeholder={placeholder}
          value={value === undefined ? '' : String(value)}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
        />
      );
  }
}
