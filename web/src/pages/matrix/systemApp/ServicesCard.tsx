/**
 * The outside services with a mode of their own on /system/app: WeChat notices of new leads (live,
 * the sandbox's simulated official account, or off), independent of the platforms' modes.
 */
import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions, Typography } from 'antd';
import { fetchServiceModes, matrixKeys } from '@/api/matrix';
import { useMatrixT } from '../i18n';
import ModeCell from './ModeCell';

export default function ServicesCard() {
  const { t } = useMatrixT();
  const services = useQuery({ queryKey: [...matrixKeys.all, 'services'], queryFn: fetchServiceModes });
  return (
    <Card size="small" title={t('apps.services.title')} style={{ marginTop: 16 }} data-testid="services-card">
      <Typography.Paragraph type="secondary">{t('apps.services.help')}</Typography.Paragraph>
      <Descriptions size="small" column={1}>
        {(services.data?.rows ?? []).map((s) => (
          <Descriptions.Item key={s.service} label={t(`apps.services.${s.service}`, { defaultValue: s.service })}>
            <ModeCell target="wechat" name={t('apps.services.wechat')} mode={s.mode} modeSet={s.mode_set} />
          </Descriptions.Item>
        ))}
      </Descriptions>
    </Card>
  );
}
