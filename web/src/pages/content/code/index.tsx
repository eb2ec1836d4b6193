/**
 * /code — sign-in codes: a QR code (and the link) of the console's sign-in page for each way of signing
 * in (enterprise account, mobile number, staff account), to print or send so people open the console
 * on a phone with the right tab chosen (`/login?type=<login_type>`). No password is ever in a code.
 */
import { Button, Card, Col, Row, Typography } from 'antd';
import PageHeader from '@/components/PageHeader';
import QrCodeImage from '@/components/QrCodeImage';
import { feedback } from '@/utils/feedback';
import { useContentT } from '../i18n';

/** SPEC §6 login types: 1 enterprise account, 2 mobile + SMS code, 3 staff account. */
export const LOGIN_TYPES = [1, 2, 3] as const;

export function signInUrl(type: number, origin: string = window.location.origin): string {
  return `${origin}/login?type=${type}`;
}

export default function CodePage() {
  const { t } = useContentT();
  return (
    <div data-testid="code-page">
      <PageHeader title={t('common:menu.code')} subTitle={t('code.subtitle')} />
      <Row gutter={[16, 16]}>
        {LOGIN_TYPES.map((type) => {
          const url = signInUrl(type);
          return (
            <Col key={type} xs={24} md={8}>
              <Card title={t(`code.type${type}`)} size="small" style={{ textAlign: 'center' }}>
                <QrCodeImage value={url} logo="/favicon.svg" testId={`code-qr-${type}`} />
                <Typography.Paragraph copyable={{ text: url, onCopy: () => feedback.success('复制成功') }} style={{ marginTop: 12 }} data-testid={`code-link-${type}`}>
                  {url}
                </Typography.Paragraph>
                <Button href={url} target="_blank">
                  {t('code.open')}
                </Button>
              </Card>
            </Col>
          );
        })}
      </Row>
    </div>
  );
}
