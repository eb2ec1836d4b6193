/**
 * "Share sign-in" for one staff member: a QR code (and the link) of the console's sign-in page with
 * the staff tab preselected and the account filled in (`/login?type=3&username=<name>`). The
 * password is never part of it.
 */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { StaffRow } from '@/api/auth/types';
import { FullscreenModal } from '@/components/ModalForm';
import QrCodeImage from '@/components/QrCodeImage';

/** The staff tab of the sign-in page (login_type 3). */
export const STAFF_LOGIN_TYPE = 3;
/** The console's logo, drawn in the middle of the code. */
const LOGO = '/favicon.svg';

/** Absolute sign-in link for a staff account. */
export function staffSignInUrl(username: string, origin: string = window.location.origin): string {
  const query = new URLSearchParams({ type: String(STAFF_LOGIN_TYPE), username });
  return `${origin}/login?${query.toString()}`;
}

export default function ShareSignInModal({ staff, onClose }: { staff: StaffRow | null; onClose: () => void }) {
  const { t } = useTranslation('auth');
  const url = staff ? staffSignInUrl(staff.username) : '';
  return (
    <FullscreenModal
      open={staff !== null}
      title={staff ? t('staff.shareTitle', { name: staff.nickname || staff.username }) : ''}
      width={420}
      footer={null}
      onCancel={onClose}
      testId="staff-share"
      destroyOnHidden
    >
      {staff ? (
        <div style={{ textAlign: 'center' }}>
          <QrCodeImage value={url} logo={LOGO} testId="staff-share-qr" />
          <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
            {t('staff.shareTips')}
          </Typography.Paragraph>
          <Typography.Paragraph copyable={{ text: url, tooltips: [t('staff.copyLink'), t('common:copySuccess')] }} style={{ wordBreak: 'break-all' }} data-testid="staff-share-link">
            <Typography.Link href={url} target="_blank" rel="noreferrer">
              {url}
            </Typography.Link>
          </Typography.Paragraph>
        </div>
      ) : null}
    </FullscreenModal>
  );
}
