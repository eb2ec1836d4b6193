import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Button, Checkbox, InputNumber, Select, Space, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useWidgetsT } from '../i18n';
import { move, type ColumnSetting, type FixedSide } from './columnSettings';

export interface ColumnSettingsProps {
  tableId: string;
  settings: ColumnSetting[];
  titles: Record<string, ReactNode>;
  onChange: (settings: ColumnSetting[]) => void;
  onSave: () => void;
  onReset: () => void;
  busy: boolean;
}

/** The column-settings popover body (width 500): show/hide, order, width, fixed side. */
export default function ColumnSettings({ tableId, settings, titles, onChange, onSave, onReset, busy }: ColumnSettingsProps) {
  const { t } = useTranslation();
  const { t: wt } = useWidgetsT();
  const patch = (key: string, p: Partial<ColumnSetting>) => onChange(settings.map((s) => (s.key === key ? { ...s, ...p } : s)));
  return (
    <div style={{ width: 500, maxWidth: '80vw' }} data-testid={`${tableId}-column-settings`}>
      <Spin spinning={busy}>
        <div style={{ display: 'flex', gap: 8, fontSize: 12, opacity: 0.65, padding: '0 0 6px' }}>
          <span style={{ flex: 1 }}>{wt('columns.column')}</span>
          <span style={{ width: 64 }}>{wt('columns.order')}</span>
          <span style={{ width: 96 }}>{wt('columns.width')}</span>
          <span style={{ width: 96 }}>{wt('columns.fixed')}</span>
        </div>
        <div style={{ maxHeight: 320, overflowY: 'auto' }}>
          {settings.map((s, index) => (
            <div key={s.key} style={{ display: 'flex', gap: 8, alignItems: 'center', padding: '3px 0' }} data-testid={`${tableId}-col-${s.key}`}>
              <Checkbox
                style={{ flex: 1, minWidth: 0 }}
                checked={!s.hide}
                onChange={(e) => patch(s.key, { hide: !e.target.checked })}
                data-testid={`${tableId}-col-show-${s.key}`}
              >
                {titles[s.key] ?? s.key}
              </Checkbox>
              <Space.Compact style={{ width: 64 }}>
                <Button
                  size="small"
                  icon={<ArrowUpOutlined />}
                  disabled={index === 0}
                  onClick={() => onChange(move(settings, s.key, -1))}
                  aria-label={wt('columns.up')}
                  data-testid={`${tableId}-col-up-${s.key}`}
                />
                <Button
                  size="small"
                  icon={<ArrowDownOutlined />}
                  disabled={index === settings.length - 1}
                  onClick={() => onChange(move(settings, s.key, 1))}
                  aria-label={wt('columns.down')}
                  data-testid={`${tableId}-col-down-${s.key}`}
                />
              </Space.Compact>
              <InputNumber
                size="small"
                min={40}
                max={1200}
                style={{ width: 96 }}
                placeholder={wt('columns.auto')}
                value={s.width ?? null}
                onChange={(w) => patch(s.key, { width: typeof w === 'number' ? w : undefined })}
                data-testid={`${tableId}-col-width-${s.key}`}
              />
              <Select<FixedSide | 'none'>
                size="small"
                style={{ width: 96 }}
                value={s.fixed ?? 'none'}
                onChange={(v) => patch(s.key, { fixed: v === 'none' ? undefined : v })}
                options={[
                  { value: 'none', label: wt('columns.fixedNone') },
                  { value: 'left', label: wt('columns.fixedLeft') },
                  { value: 'right', label: wt('columns.fixedRight') },
                ]}
                data-testid={`${tableId}-col-fixed-${s.key}`}
              />
            </div>
          ))}
        </div>
        <div style={{ marginTop: 12, textAlign: 'right' }}>
          <Space>
            <Button size="small" onClick={onReset} loading={busy} data-testid={`${tableId}-columns-reset`}>
              {t('reset')}
            </Button>
            <Button size="small" type="primary" onClick={onSave} loading={busy} data-testid={`${tableId}-columns-save`}>
              {t('save')}
            </Button>
          </Space>
        </div>
      </Spin>
    </div>
  );
}
