import { ClockCircleOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * "All times are China time (UTC+8)": shown wherever release times are entered or listed, since the
 * console shows and takes times in the merchants' zone, not the browser's (utils/format.ts).
 */
export default function TimeZoneNote({ style }: { style?: React.CSSProperties }) {
  const { t } = useTranslation('common');
  return (
    <Typography.Text type="secondary" style={style} data-testid="time-zone-note">
      <ClockCircleOutlined /> {t('inTimeZone', { zone: t('timeZone') })}
    </Typography.Text>
  );
}
