import { Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { addStaff, authKeys, editStaff } from '@/api/auth';
import { useWrite } from '@/api/mutations';
import type { StaffRow } from '@/api/auth/types';
import ModalForm from '@/components/ModalForm';
import { feedback } from '@/utils/feedback';
import { mobileRules, passwordRules } from '@/utils/validators';

interface Values {
  username: string;
  nickname: string;
  mobile?: string;
  password?: string;
  status?: boolean;
}

/** Add (row null) or edit a staff sub-account. */
export default function StaffFormModal({
  open,
  row,
  onClose,
  onSaved,
}: {
  open: boolean;
  row: StaffRow | null;
  onClose: () => void;
  onSaved: (row: StaffRow, created: boolean) => void;
}) {
  const { t } = useTranslation('auth');
  const editing = row !== null;
  const edit = useWrite(editStaff, authKeys.all);
  const add = useWrite(addStaff, authKeys.all);

  const submit = async (values: Values) => {
    const saved = editing
      ? await edit.mutateAsync({
          id: row.id,
          nickname: values.nickname.trim(),
          mobile: values.mobile || undefined,
          password: values.password || undefined,
          status: values.status ? 1 : 0,
        })
      : await add.mutateAsync({
          username: values.username.trim(),
          nickname: values.nickname.trim(),
          mobile: values.mobile || undefined,
          password: values.password ?? '',
        });
    feedback.success(t(editing ? 'staff.updated' : 'staff.created'));
    onSaved(saved, !editing);
  };

  return (
    <ModalForm<Values>
      open={open}
      title={editing ? t('staff.edit') : t('staff.add')}
      onCancel={onClose}
      onSubmit={submit}
      testId="staff-modal"
      initialValues={
        editing
          ? { username: row.username, nickname: row.nickname, mobile: row.mobile ?? undefined, status: row.status === 1 }
          : { status: true }
      }
    >
      <Form.Item name="username" label={t('staff.username')} rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}>
        <Input disabled={editing} autoComplete="off" data-testid="staff-username" />
      </Form.Item>
      <Form.Item name="nickname" label={t('staff.nickname')} rules={[{ required: true, whitespace: true, message: t('common:validation.required') }]}>
        <Input data-testid="staff-nickname" />
      </Form.Item>
      <Form.Item name="mobile" label={t('login.mobile')} rules={mobileRules(t, false)}>
        <Input data-testid="staff-mobile" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('login.password')}
        rules={passwordRules(t, !editing)}
        extra={editing ? t('staff.passwordKeep') : t('usercenter.passwordHint')}
      >
        <Input.Password autoComplete="new-password" data-testid="staff-password" />
      </Form.Item>
      {editing ? (
        <Form.Item name="status" label={t('common:status')} valuePropName="checked">
          <Switch checkedChildren={t('common:enabled')} unCheckedChildren={t('common:disabled')} />
        </Form.Item>
      ) : null}
    </ModalForm>
  );
}
