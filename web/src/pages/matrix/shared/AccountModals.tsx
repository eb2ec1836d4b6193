/** Account dialogs: edit (group, remarks, type via user_save) and region / POI (update_address, discharge_poi). */
import { Button, Form, Input, Popconfirm, Radio, Select, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { clearPoi, matrixKeys, saveAccount, searchPoi, SESSION_PLATFORMS, updateAddress, updateProxy } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { Account, AccountGroup } from '@/api/matrix/types';
import ModalForm from '@/components/ModalForm';
import { feedback } from '@/utils/feedback';
import { useMatrixT } from '../i18n';
import { PROXY_PATTERN, REMARKS_MAX } from '../rules';
import { atField } from './errors';
import { usePoiSearch } from './usePoiSearch';

interface EditValues {
  group_id: number;
  remarks: string;
  account_type: Account['account_type'];
  /** Creator-console accounts: the proxy as shown (credentials are typed again to change it). */
  proxy?: string;
}

/** 0 = ungrouped. */
export function AccountEditModal({
  account,
  groups,
  onClose,
  onSaved,
}: {
  account: Account | null;
  groups: AccountGroup[];
  onClose: () => void;
  onSaved: (a: Account) => void;
}) {
  const { t } = useMatrixT();
  const save = useWrite(saveAccount, matrixKeys.all);
  const proxy = useWrite(({ id, value }: { id: number; value: string }) => updateProxy(id, value), matrixKeys.all);
  // Only the creator-console accounts browse; the open-API ones call their APIs directly.
  const withProxy = account !== null && SESSION_PLATFORMS.includes(account.platform);
  return (
    <ModalForm<EditValues>
      open={account !== null}
      title={t('account.editTitle', { name: account?.nickname ?? '' })}
      initialValues={account ? { group_id: account.group_id ?? 0, remarks: account.remarks ?? '', account_type: account.account_type, proxy: account.proxy ?? '' } : undefined}
      onCancel={onClose}
      onSubmit={async (v) => {
        if (!account) return;
        const value = (v.proxy ?? '').trim();
        // Checked first: a refused proxy leaves the rest unsaved too.
        if (withProxy && value !== (account.proxy ?? '')) await atField(proxy.mutateAsync({ id: account.id, value }));
        onSaved(await atField(save.mutateAsync({ id: account.id, group_id: v.group_id ?? 0, remarks: (v.remarks ?? '').trim(), account_type: v.account_type })));
      }}
      testId="account-edit"
    >
      <Form.Item name="group_id" label={t('account.group')}>
        <Select
          data-testid="account-edit-group"
          options={[{ value: 0, label: t('group.ungrouped') }, ...groups.map((g) => ({ value: g.id, label: g.name }))]}
        />
      </Form.Item>
      <Form.Item name="account_type" label={t('account.type')}>
        <Radio.Group
          options={(['personal', 'enterprise'] as const).map((v) => ({ value: v, label: t(`accountType.${v}`) }))}
          data-testid="account-edit-type"
        />
      </Form.Item>
      <Form.Item name="remarks" label={t('account.remarks')} rules={[{ max: REMARKS_MAX, message: t('account.remarksTooLong', { max: REMARKS_MAX }) }]}>
        <Input.TextArea rows={3} maxLength={REMARKS_MAX} showCount data-testid="account-edit-remarks" />
      </Form.Item>
      {withProxy ? (
        <Form.Item
          name="proxy"
          label={t('account.proxy')}
          extra={t('account.proxyHint')}
          rules={[{ pattern: PROXY_PATTERN, message: t('account.proxyInvalid') }]}
        >
          <Input placeholder="http://user:pass@host:port" allowClear data-testid="account-edit-proxy" />
        </Form.Item>
      ) : null}
    </ModalForm>
  );
}

interface AddressValues {
  province: string;
  city: string;
  poi_id: string;
  poi_name: string;
  poi_address: string;
}

export function AccountAddressModal({ account, onClose, onSaved }: { account: Account | null; onClose: () => void; onSaved: (a: Account) => void }) {
  const { t } = useMatrixT();
  const [form] = Form.useForm<AddressValues>();
  const city = Form.useWatch('city', form);
  const poiId = Form.useWatch('poi_id', form);
  const poiName = Form.useWatch('poi_name', form);
  const poi = usePoiSearch(searchPoi, city);
  const address = useWrite(updateAddress, matrixKeys.all);
  const clearing = useWrite(clearPoi, matrixKeys.all);

  useEffect(() => {
    if (!account) poi.onSearch('');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [account]);

  const options = poi.rows.map((p) => ({ value: p.poi_id, label: `${p.poi_name} · ${p.address}`, poi: p }));
  if (poiId && !options.some((o) => o.value === poiId)) options.unshift({ value: poiId, label: poiName || poiId, poi: undefined as never });

  return (
    <ModalForm<AddressValues>
      open={account !== null}
      title={t('address.title', { name: account?.nickname ?? '' })}
      form={form}
      initialValues={
        account
          ? {
              province: account.province ?? '',
              city: account.city ?? '',
              poi_id: account.poi_id ?? '',
              poi_name: account.poi_name ?? '',
              poi_address: account.poi_address ?? '',
            }
          : undefined
      }
      onCancel={onClose}
      onSubmit={async (v) => {
        if (!account) return;
        const saved = await atField(address.mutateAsync({
          id: account.id,
          province: (v.province ?? '').trim(),
          city: (v.city ?? '').trim(),
          poi_id: v.poi_id ?? '',
          poi_name: v.poi_name ?? '',
          poi_address: v.poi_address ?? '',
        }));
        onSaved(saved);
      }}
      testId="account-address"
    >
      <Space.Compact block>
        <Form.Item name="province" label={t('address.province')} style={{ width: '50%' }}>
          <Input data-testid="address-province" />
        </Form.Item>
        <Form.Item name="city" label={t('address.city')} style={{ width: '50%' }}>
          <Input data-testid="address-city" />
        </Form.Item>
      </Space.Compact>
      <Form.Item label={t('address.poi')} extra={t('address.poiHelp')}>
        <Space.Compact block>
          <Form.Item name="poi_id" noStyle>
            <Select
              showSearch={{ filterOption: false, onSearch: poi.onSearch }}
              allowClear
              loading={poi.loading}
              placeholder={t('address.poiSearch')}
              notFoundContent={poi.loading ? undefined : t('address.poiNone')}
              options={options}
              onChange={(value, option) => {
                const p = (option as { poi?: { poi_name: string; address: string; city: string; province: string } } | undefined)?.poi;
                if (!value) form.setFieldsValue({ poi_id: '', poi_name: '', poi_address: '' });
                else if (p)
                  form.setFieldsValue({
                    poi_name: p.poi_name,
                    poi_address: p.address,
                    city: form.getFieldValue('city') || p.city,
                    province: form.getFieldValue('province') || p.province,
                  });
              }}
              data-testid="address-poi"
            />
          </Form.Item>
          {account?.poi_id ? (
            <Popconfirm
              title={t('address.clearConfirm')}
              okText={t('common:ok')}
              cancelText={t('common:cancel')}
              okButtonProps={{ 'data-testid': 'address-clear-ok' } as never}
              onConfirm={async () => {
                try {
                  const saved = await clearing.mutateAsync(account.id);
                  feedback.success(t('address.cleared'));
                  onSaved(saved);
                } catch {
                  /* toasted */
                }
              }}
            >
              <Button danger loading={clearing.isPending} data-testid="address-clear">
                {t('address.clear')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space.Compact>
      </Form.Item>
      <Form.Item name="poi_name" hidden>
        <Input />
      </Form.Item>
      <Form.Item name="poi_address" hidden>
        <Input />
      </Form.Item>
      {poiName ? (
        <Typography.Text type="secondary" data-testid="address-poi-chosen">
          {poiName} · {form.getFieldValue('poi_address')}
        </Typography.Text>
      ) : null}
    </ModalForm>
  );
}
