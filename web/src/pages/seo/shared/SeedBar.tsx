import { Input, Space } from 'antd';
import { useSeoT } from '../i18n';
import { WORD_MAX } from '../rules';
import PlatformSwitch from './PlatformSwitch';
import type { useSeedQuery } from './useSeedQuery';

/** The platform switch and the seed word box of the search and mining pages. */
export default function SeedBar({ seed, button, testId, onSearch }: { seed: ReturnType<typeof useSeedQuery>; button: string; testId: string; onSearch?: () => void }) {
  const { t } = useSeoT();
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <PlatformSwitch value={seed.platform} onChange={(platform) => seed.set({ platform })} />
      <Input.Search
        key={seed.word}
        defaultValue={seed.word}
        allowClear
        enterButton={button}
        maxLength={WORD_MAX}
        placeholder={t('search.placeholder')}
        onSearch={(v) => {
          onSearch?.();
          seed.set({ word: v.trim() });
        }}
        style={{ width: 360 }}
        data-testid={testId}
      />
    </Space>
  );
}
