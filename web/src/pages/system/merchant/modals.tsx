import { DatePicker, Form, Input, InputNumber, Radio } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useWrite } from '@/api/mutations';
import { addMerchant, editMerchant, resetMerchantPassword, systemKeys, topupMerchant } from '@/api/system';
import type { MerchantRow } from '@/api/system/types';
import ModalForm from '@/components/ModalForm';
import { feedback } from '@/utils/feedback';
import { mobileRules, passwordRules } from '@/utils/validators';

interface MerchantValues {
  name: string;
  username: string;
  password?: string;
  mobile?: string;
  vip?: Dayjs | null;
  /** 1: 'header' home layout (top menu, starts at /home); 2: 'second' (side menu). */
  home_type?: number;
}

export function MerchantFormModal({ open, row, onClose, onSaved }: { open: boolean; row: MerchantRow | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('system');
  const editing = row !== null;
  const edit = useWrite(editMerchant, systemKeys.all);
  const add = useWrite(addMerchant, systemKeys.all);
  const submit = async (v: MerchantValues) => {
    if (editing) {
      // the server keeps the owner's mobile on edit (MerchantEdit has none)
      await edit.mutateAsync({ id: row.id, name: v.name.trim(), vip_expires_at: v.vip ? v.vip.endOf('day').valueOf() : null, home_type: v.home_type });
    } else {
      await add.mutateAsync({ name: v.name.trim(), username: v.username.trim(), password: v.password ?? '', mobile: v.mobile || undefined });
    }
    feedback.success(t('common:savedSuccessfully'));
    onSaved();
  };
  return (
    <ModalForm<MerchantValues>
      open={open}
      title={editing ? t('merchant.edit') : t('merchant.add')}
      onCancel={onClose}
      onSubmit={submit}
      testId="merchant-modal"
      initialValues={
        editing
          ? { name: row.name, username: row.username, vip: row.vip_expires_at ? dayjs(row.vip_expires_at) : null, home_type: row.home_type === 1 ? 1 : 2 }
          : undefined
      }
    >
      <Form.Item name="name" label={t('merchant.name')} rules={[{ required: true, whitespace: true, message: t('common:validation.required') }]}>
        <Input data-testid="merchant-name" />
      </Form.Item>
      <Form.Item name="username" label={t('merchant.username')} rules={[{ required: !editing, whitespace: true, message: t('common:validation.required') }]}>
        <Input disabled={editing} data-testid="merchant-username" />
      </Form.Item>
      {editing ? (
        <>
          <Form.Item name="vip" label={t('merchant.vip')}>
            <DatePicker style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="home_type" label={t('merchant.homeType')} extra={t('merchant.homeTypeHelp')}>
            <Radio.Group
              options={[
                { value: 2, label: t('merchant.homeSecond') },
                { value: 1, label: t('merchant.homeHeader') },
              ]}
              data-testid="merchant-home-type"
            />
          </Form.Item>
        </>
      ) : (
        <Form.Item name="password" label={t('merchant.password')} rules={passwordRules(t)}>
          <Input.Password autoComplete="new-password" data-testid="merchant-password" />
        </Form.Item>
      )}
      {/* the owner's mobile is set when the merchant is added; an edit does not change it (MerchantEdit has none) */}
      {!editing && (
        <Form.Item name="mobile" label={t('merchant.mobile')} rules={mobileRules(t, false)}>
          <Input data-testid="merchant-mobile" />
        </Form.Item>
      )}
    </ModalForm>
  );
}

export function ResetPasswordModal({ row, onClose }: { row: MerchantRow | null; onClose: () => void }) {
  const { t } = useTranslation('system');
  const reset = useWrite(({ id, password }: { id: number; password: string }) => resetMerchantPassword(id, password));
  return (
    <ModalForm<{ password: string }>
      open={row !== null}
      title={t('merchant.resetPasswordOf', { name: row?.username ?? '' })}
      onCancel={onClose}
      onSubmit={async (v) => {
        await reset.mutateAsync({ id: row!.id, password: v.password });
        feedback.success(t('merchant.passwordReset'));
        onClose();
      }}
      testId="merchant-password-modal"
    >
      <Form.Item name="password" label={t('merchant.password')} rules={passwordRules(t)}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </ModalForm>
  );
}

export function TopupModal({ row, onClose, onSaved }: { row: MerchantRow | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('system');
  const topup = useWrite(({ id, points, reason }: { id: number; points: number; reason?: string }) => topupMerchant(id, points, reason), systemKeys.all);
  return (
    <ModalForm<{ points: number; reason?: string }>
      open={row !== null}
      title={t('merchant.topupOf', { name: row?.name ?? '' })}
      onCancel={onClose}
      onSubmit={async (v) => {
        const res = await topup.mutateAsync({ id: row!.id, points: v.points, reason: v.reason || undefined });
        feedback.success(t('merchant.topupDone', { balance: res.balance }));
        onSaved();
      }}
      testId="merchant-topup-modal"
    >
      <Form.Item name="points" label={t('merchant.points')} rules={[{ required: true, message: t('common:validation.required') }]}>
        <InputNumber min={1} precision={0} style={{ width: '100%' }} data-testid="merchant-topup-points" />
      </Form.Item>
      <Form.Item name="reason" label={t('merchant.reason')}>
        <Input maxLength={200} />
      </Form.Item>
    </ModalForm>
  );
}
