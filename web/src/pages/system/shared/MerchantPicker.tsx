/**
 * Merchant picker of the operator lists (/system/log, /system/tasks): a TableSelect over
 * `/system/merchant/index` searched by name. `merchantFilter` turns the choice into the list engine's
 * `filterObj` entry of the list at hand (docs/api-lists.md).
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { systemUrls } from '@/api/system';
import type { MerchantRow } from '@/api/system/types';
import type { FilterObj } from '@/components/FilterDrawer/model';
import TableSelect from '@/components/TableSelect';

export type PickedMerchant = Pick<MerchantRow, 'id' | 'name' | 'username'>;

/**
 * The filterObj of a list for the chosen merchant: the operation log names the merchant
 * (`merchant_name`, text), the task queue keeps its id (`merchant_id`, int). Empty when none is chosen.
 */
export function merchantFilter(merchant: PickedMerchant | undefined, field: 'merchant_name' | 'merchant_id'): FilterObj {
  if (!merchant) return {};
  return { [field]: `${field === 'merchant_name' ? merchant.name : merchant.id}|=` };
}

export interface MerchantPickerProps {
  value?: PickedMerchant;
  onChange: (merchant: PickedMerchant | undefined) => void;
  testId?: string;
}

export default function MerchantPicker({ value, onChange, testId = 'merchant-picker' }: MerchantPickerProps) {
  const { t } = useTranslation('system');
  const columns = useMemo(
    () => [
      { title: 'ID', dataIndex: 'id', width: 70 },
      { title: t('merchantFilter.name'), dataIndex: 'name', ellipsis: true },
      { title: t('merchantFilter.username'), dataIndex: 'username', ellipsis: true },
    ],
    [t],
  );
  return (
    <TableSelect<PickedMerchant & Record<string, unknown>>
      api={systemUrls.merchants}
      columns={columns}
      value={value?.id}
      onChange={(_, rows) => onChange(rows[0] ? { id: rows[0].id, name: rows[0].name, username: rows[0].username } : undefined)}
      valueKey="id"
      labelKey="name"
      search="name"
      placeholder={t('merchantFilter.placeholder')}
      testId={testId}
    />
  );
}
