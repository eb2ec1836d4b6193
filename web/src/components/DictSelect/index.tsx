/**
 * Dictionary-driven select (SPEC §2, §3 "Dictionary select", §7): options come from
 * `GET /system/dic?name=<name>` as [{label, value}]. One request per dictionary, shared by every
 * select of the page (react-query cache).
 */
import { useQuery } from '@tanstack/react-query';
import { Select, type SelectProps } from 'antd';
import { api } from '@/api/client';
import { systemKeys } from '@/api/system';
import { useWidgetsT } from '../i18n';

export interface DictOption {
  label: string;
  value: string | number;
}

export const DIC_URL = '/system/dic' as const;

export function fetchDictionary(name: string): Promise<DictOption[]> {
  return api.get(DIC_URL, { name });
}

/** The options of one dictionary (cached for 5 minutes). */
export function useDictionary(name: string | undefined) {
  return useQuery({
    queryKey: systemKeys.dic(name),
    queryFn: async () => {
      const data = await fetchDictionary(name!);
      return Array.isArray(data) ? data.filter((o) => o && typeof o === 'object' && 'value' in o) : [];
    },
    enabled: Boolean(name),
    staleTime: 5 * 60_000,
  });
}

export interface DictSelectProps extends Omit<SelectProps<unknown>, 'options' | 'mode' | 'loading'> {
  /** Dictionary name, sent as the parameter `name`. */
  name: string;
  multiple?: boolean;
  testId?: string;
}

export default function DictSelect({ name, multiple, testId, placeholder, allowClear = true, ...rest }: DictSelectProps) {
  const { t } = useWidgetsT();
  const dic = useDictionary(name);
  return (
    <Select
      {...rest}
      allowClear={allowClear}
      showSearch={{ optionFilterProp: 'label' }}
      mode={multiple ? 'multiple' : undefined}
      loading={dic.isFetching}
      placeholder={placeholder ?? t('select.placeholder')}
      options={(dic.data ?? []).map((o) => ({ label: o.label, value: o.value }))}
      notFoundContent={dic.isError ? t('select.loadFailed') : undefined}
      data-testid={testId ?? `dict-${name}`}
    />
  );
}
