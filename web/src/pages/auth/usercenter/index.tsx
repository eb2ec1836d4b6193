import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Descriptions, Form, Input, Row, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { editPassword, editProfile, fetchProfile } from '@/api/auth';
import type { InitAdmin, UserRecord } from '@/api/auth/types';
import { useWrite } from '@/api/mutations';
import { RequestError } from '@/api/request';
import PageHeader from '@/components/PageHeader';
import { clearSession, saveUser } from '@/store/session';
import { feedback } from '@/utils/feedback';
import { confirmRules, mobileRules, passwordRules } from '@/utils/validators';
import ApiTokens from './ApiTokens';
import AvatarField from './AvatarField';

/** What the sign-in name is called: the enterprise account, a staff member's own staff account (SPEC §login types). */
const USERNAME_LABEL: Record<UserRecord['kind'], string> = {
  merchant: 'login.username',
  staff: 'login.staffUsername',
  operator: 'usercenter.account',
};

interface ProfileValues {
  nickname: string;
  mobile?: string;
}

interface PasswordValues {
  old_password: string;
  password: string;
  password_confirm: string;
}

export default function UserCenterPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const profile = useQuery({ queryKey: ['profile'], queryFn: fetchProfile });
  const [profileForm] = Form.useForm<ProfileValues>();
  const [passwordForm] = Form.useForm<PasswordValues>();
  // the answer is the user as saved: applyUser puts it in place
  const savingProfile = useWrite(editProfile);
  const savingPassword = useWrite(editPassword);

  useEffect(() => {
    if (profile.data) {
      profileForm.setFieldsValue({
        nickname: profile.data.nickname,
        mobile: profile.data.mobile ?? undefined,
      });
    }
  }, [profile.data, profileForm]);

  /** The saved user everywhere at once: the stored session, this page and the header. */
  const applyUser = async (user: UserRecord) => {
    saveUser(user);
    queryClient.setQueryData(['profile'], user);
    queryClient.setQueryData<InitAdmin>(['initAdmin'], (old) => (old ? { ...old, user } : old));
    await queryClient.invalidateQueries({ queryKey: ['initAdmin'] });
  };

  const saveProfile = async (values: ProfileValues) => {
    try {
      // the avatar is left out: it is kept (AvatarField sets it on its own)
      const user = await savingProfile.mutateAsync({
        nickname: values.nickname.trim(),
        mobile: values.mobile || undefined,
      });
      await applyUser(user);
      feedback.success(t('usercenter.profileSaved'));
    } catch (error) {
      if (error instanceof RequestError && error.field) {
        profileForm.setFields([{ name: error.field as keyof ProfileValues, errors: [error.message] }]);
      }
    }
  };

  const changePassword = async (values: PasswordValues) => {
    try {
      await savingPassword.mutateAsync(values);
      feedback.success(t('usercenter.passwordChanged'));
      clearSession();
      queryClient.clear();
      navigate('/login', { replace: true });
    } catch (error) {
      if (error instanceof RequestError && error.field) {
        passwordForm.setFields([{ name: error.field as keyof PasswordValues, errors: [error.message] }]);
      }
    }
  };

  const user = profile.data;
  return (
    <>
      <PageHeader title={t('common:menu.usercenter')} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('usercenter.profile')} loading={profile.isPending}>
            {user ? (
              <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
                <Descriptions.Item label={t(USERNAME_LABEL[user.kind])}>{user.username}</Descriptions.Item>
                <Descriptions.Item label={t('usercenter.kind')}>{t(`usercenter.kinds.${user.kind}`)}</Descriptions.Item>
                {user.merchant_name ? (
                  <Descriptions.Item label={t('usercenter.merchant')}>{user.merchant_name}</Descriptions.Item>
                ) : null}
                <Descriptions.Item label={t('usercenter.roles')}>
                  {user.role.map((r) => (
                    <Tag key={r}>{r}</Tag>
                  ))}
                </Descriptions.Item>
              </Descriptions>
            ) : null}
            {user ? (
              <div style={{ marginBottom: 16 }} data-testid="profile-avatar">
                <div style={{ marginBottom: 8 }}>
                  <Typography.Text strong>{t('usercenter.avatar')}</Typography.Text>
                </div>
                <AvatarField user={user} onSaved={applyUser} />
              </div>
            ) : null}
            <Form<ProfileValues> form={profileForm} layout="vertical" onFinish={saveProfile} data-testid="profile-form">
              <Form.Item name="nickname" label={t('usercenter.nickname')} rules={[{ required: true, whitespace: true, message: t('common:validation.required') }]}>
                <Input maxLength={50} data-testid="profile-nickname" />
              </Form.Item>
              <Form.Item name="mobile" label={t('login.mobile')} rules={mobileRules(t, false)}>
                <Input data-testid="profile-mobile" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={savingProfile.isPending} data-testid="profile-submit">
                {t('common:save')}
              </Button>
            </Form>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('usercenter.changePassword')}>
            <Form<PasswordValues> form={passwordForm} layout="vertical" onFinish={changePassword} data-testid="password-form">
              <Form.Item name="old_password" label={t('usercenter.oldPassword')} rules={[{ required: true, message: t('usercenter.oldPasswordRequired') }]}>
                <Input.Password autoComplete="current-password" data-testid="password-old" />
              </Form.Item>
              <Form.Item name="password" label={t('reset.newPassword')} rules={passwordRules(t)} extra={t('usercenter.passwordHint')}>
                <Input.Password autoComplete="new-password" data-testid="password-new" />
              </Form.Item>
              <Form.Item name="password_confirm" label={t('register.confirm')} dependencies={['password']} rules={confirmRules(t)}>
                <Input.Password autoComplete="new-password" data-testid="password-confirm" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={savingPassword.isPending} data-testid="password-submit">
                {t('usercenter.changePassword')}
              </Button>
            </Form>
          </Card>
        </Col>
        {/* personal API tokens: merchants and staff (the operator has no tenant to reach) */}
        {user && user.kind !== 'operator' ? (
          <Col span={24}>
            <ApiTokens />
          </Col>
        ) : null}
      </Row>
    </>
  );
}
