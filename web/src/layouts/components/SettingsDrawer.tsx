import { CheckOutlined } from '@ant-design/icons';
import { Button, Divider, Drawer, Radio, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSettings, type LayoutChoice } from '@/store/settings';

const COLORS = ['#1677ff', '#13c2c2', '#52c41a', '#fa8c16', '#f5222d', '#722ed1', '#eb2f96'];

/** Theme and layout settings, stored in localStorage. */
export default function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { settings, update, reset } = useSettings();

  return (
    <Drawer open={open} onClose={onClose} title={t('layout.settingsTitle')} size={320} data-testid="settings-drawer">
      <Typography.Text strong>{t('layout.primaryColor')}</Typography.Text>
      <div style={{ display: 'flex', gap: 8, margin: '12px 0', flexWrap: 'wrap' }}>
        {COLORS.map((color) => (
          <button
            key={color}
            type="button"
            aria-label={color}
            onClick={() => update({ primaryColor: color })}
            style={{ width: 24, height: 24, borderRadius: 4, border: 'none', cursor: 'pointer', background: color, color: '#fff' }}
          >
            {settings.primaryColor === color ? <CheckOutlined /> : null}
          </button>
        ))}
      </div>
      <Divider />
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <Space>
          <Switch checked={settings.dark} onChange={(dark) => update({ dark })} data-testid="settings-dark" />
          {t('layout.darkMode')}
        </Space>
        <Space>
          <Switch checked={settings.compact} onChange={(compact) => update({ compact })} />
          {t('layout.compact')}
        </Space>
        <Space>
          <Switch checked={settings.watermark} onChange={(watermark) => update({ watermark })} />
          {t('layout.watermark')}
        </Space>
        <div>
          <Typography.Text strong>{t('layout.layoutMode')}</Typography.Text>
          <div style={{ marginTop: 8 }}>
            <Radio.Group
              value={settings.layout}
              onChange={(e) => update({ layout: e.target.value as LayoutChoice })}
              optionType="button"
              options={[
                { value: 'auto', label: t('layout.layoutAuto') },
                { value: 'second', label: t('layout.layoutSecond') },
                { value: 'header', label: t('layout.layoutHeader') },
              ]}
            />
          </div>
        </div>
        <Button onClick={reset} block>
          {t('layout.resetSettings')}
        </Button>
      </Space>
    </Drawer>
  );
}
