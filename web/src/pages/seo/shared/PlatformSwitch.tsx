import { Segmented } from 'antd';
import type { SeoPlatform } from '@/api/seo/types';
import { useSeoT } from '../i18n';
import { PLATFORMS } from '../rules';

/** Douyin / Kuaishou. */
export default function PlatformSwitch({ value, onChange, testId = 'seo-platform' }: { value: SeoPlatform; onChange: (p: SeoPlatform) => void; testId?: string }) {
  const { t } = useSeoT();
  return (
    <Segmented<SeoPlatform>
      value={value}
      onChange={onChange}
      options={PLATFORMS.map((p) => ({ value: p, label: <span data-testid={`${testId}-${p}`}>{t(`platform.${p}`)}</span> }))}
      data-testid={testId}
    />
  );
}
