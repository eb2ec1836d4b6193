import { Empty, Space, Tag } from 'antd';
import type { Keyword } from '@/api/seo/types';
import { chipSizes } from '../rules';

/** Words as chips sized by their weight. */
export default function WordChips({ words, testId = 'word-chips', empty }: { words: readonly Keyword[]; testId?: string; empty?: string }) {
  if (!words.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  const sizes = chipSizes(words);
  return (
    <Space size={[6, 6]} wrap data-testid={testId}>
      {words.map((w, i) => (
        <Tag key={w.word} color="blue" style={{ fontSize: sizes[i], lineHeight: 1.5, padding: '2px 8px' }} data-testid={`${testId}-${w.word}`} title={String(w.weight)}>
          {w.word}
        </Tag>
      ))}
    </Space>
  );
}
