/**
 * The user's avatar (user center): a cropped image uploaded to the caller's image library
 * (`POST /common.tool/project_upload`), then set at once with `POST /index/editProfile`. The server
 * answers the user record whose `avatar` is a link that does not expire; the header shows it too.
 * Accounts that cannot upload (the operator has no merchant, hence no library; a staff member whose
 * menus do not grant the upload) see the avatar only, with the reason that applies to them.
 */
import { UserOutlined } from '@ant-design/icons';
import { Avatar, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '@/access/AccessContext';
import { editProfile } from '@/api/auth';
import { useWrite } from '@/api/mutations';
import type { UserRecord } from '@/api/auth/types';
import SingleImageUpload from '@/components/Upload/SingleImageUpload';
import { feedback } from '@/utils/feedback';

export const AVATAR_UPLOAD_URL = '/common.tool/project_upload';
const AVATAR_UPLOAD_PERMISSION = 'common/tool/project_upload';

/** The editProfile body that sets (or, with '', removes) the avatar and keeps the rest of the profile. */
export function avatarBody(user: Pick<UserRecord, 'nickname' | 'mobile' | 'username'>, avatar: string): { nickname: string; mobile?: string; avatar: string } {
  // the server clears a mobile left out of the body, so the saved one goes along
  return { nickname: user.nickname || user.username, ...(user.mobile ? { mobile: user.mobile } : {}), avatar };
}

export interface AvatarFieldProps {
  user: UserRecord;
  onSaved: (user: UserRecord) => void;
}

export default function AvatarField({ user, onSaved }: AvatarFieldProps) {
  const { t } = useTranslation('auth');
  const access = useAccess();
  // the answer is the user as saved: `onSaved` puts it in place
  const write = useWrite(editProfile);
  const saving = write.isPending;
  // a failed save starts the uploader over, so it does not show an image that was not set
  const [attempt, setAttempt] = useState(0);
  const canUpload = Boolean(user.merchant_id) && access.can(AVATAR_UPLOAD_PERMISSION);

  if (!canUpload) {
    return (
      <Space align="center" data-testid="avatar-readonly">
        <Avatar size={64} src={user.avatar || undefined} icon={<UserOutlined />} />
        {/* a staff member is refused by their menus, the operator has no library at all */}
        <Typography.Text type="secondary">{t(user.kind === 'staff' ? 'usercenter.avatarUnavailableStaff' : 'usercenter.avatarUnavailable')}</Typography.Text>
      </Space>
    );
  }

  const save = async (src: string | undefined) => {
    try {
      const next = await write.mutateAsync(avatarBody(user, src ?? ''));
      onSaved(next);
      feedback.success(src ? t('usercenter.avatarSaved') : t('usercenter.avatarRemoved'));
    } catch {
      setAttempt((n) => n + 1); // toasted by the request wrapper
    }
  };

  return (
    <Space align="center" size={16} wrap>
      <Spin spinning={saving}>
        <SingleImageUpload
          key={attempt}
          action={AVATAR_UPLOAD_URL}
          value={user.avatar || undefined}
          aspect={1}
          onChange={(src) => void save(src)}
          disabled={saving}
          testId="avatar-upload"
        />
      </Spin>
      <Typography.Text type="secondary" style={{ maxWidth: 260, display: 'inline-block' }}>
        {t('usercenter.avatarTips')}
      </Typography.Text>
    </Space>
  );
}
