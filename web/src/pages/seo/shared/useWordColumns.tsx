/**
 * The columns of the searched and mined words: heat, the 7-day trend, the change, whether the merchant
 * collected it and how many of their titles cover it, and the collect button. A word collected here is
 * shown as collected at once, without searching the platform again.
 */
import { CheckOutlined, StarOutlined } from '@ant-design/icons';
import { Button, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useCallback, useMemo, useState } from 'react';
import { useWrite } from '@/api/mutations';
import { collectWord } from '@/api/seo';
import type { SearchWord, SeoPlatform } from '@/api/seo/types';
import type { DataTableColumn } from '@/components/DataTable';
import { feedback } from '@/utils/feedback';
import { useSeoT } from '../i18n';
import { changeText } from '../rules';
import CoveredTag from './CoveredTag';
import Sparkline from './Sparkline';

export function useCollect(platform: SeoPlatform) {
  const { t } = useSeoT();
  const [collected, setCollected] = useState<Set<string>>(() => new Set());
  // the words on screen are the platform's: a collected one is marked here instead of searched again
  const write = useWrite(({ word, heat }: { word: string; heat?: number }) => collectWord(word, platform, heat));
  const { mutateAsync } = write;
  const busy = write.isPending ? (write.variables?.word ?? null) : null;
  const collect = useCallback(
    async (word: string, heat?: number) => {
      try {
        await mutateAsync({ word, heat });
        setCollected((s) => new Set(s).add(word));
        feedback.success(t('word.collectedOk', { word }));
      } catch {
        /* toasted */
      }
    },
    [mutateAsync, t],
  );
  const isCollected = useCallback((row: { word: string; collected: boolean }) => row.collected || collected.has(row.word), [collected]);
  return useMemo(() => ({ collect, isCollected, busy }), [collect, isCollected, busy]);
}

type Collector = ReturnType<typeof useCollect>;

/** The column with the collect button, or 'collected' once it is. */
export function collectColumn<T extends { word: string; heat: number; collected: boolean }>(t: TFunction, testId: string, { collect, isCollected, busy }: Collector): DataTableColumn<T> {
  return {
    title: t('common:actions'),
    key: 'actions',
    width: 120,
    fixed: 'right',
    render: (_, row) =>
      isCollected(row) ? (
        <Tag icon={<CheckOutlined />} color="gold" data-testid={`${testId}-collected-${row.word}`}>
          {t('seo:word.collected')}
        </Tag>
      ) : (
        <Button type="link" size="small" icon={<StarOutlined />} loading={busy === row.word} onClick={() => void collect(row.word, row.heat)} data-testid={`${testId}-collect-${row.word}`}>
          {t('seo:word.collect')}
        </Button>
      ),
  };
}

export function useWordColumns<T extends SearchWord>(platform: SeoPlatform, testId: string): DataTableColumn<T>[] {
  const { t } = useSeoT();
  const collector = useCollect(platform);
  return useMemo<DataTableColumn<T>[]>(
    () => [
      { title: t('word.word'), dataIndex: 'word', width: 200, render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
      { title: t('word.heat'), dataIndex: 'heat', width: 110, render: (v: number) => v.toLocaleString() },
      { title: t('word.trend'), dataIndex: 'trend', width: 120, render: (v: number[], row) => <Sparkline values={v ?? []} testId={`${testId}-trend-${row.word}`} /> },
      {
        title: t('word.change'),
        dataIndex: 'change',
        width: 100,
        render: (v: number, row) => (
          <Typography.Text type={v > 0 ? 'danger' : v < 0 ? 'success' : 'secondary'} data-testid={`${testId}-change-${row.word}`}>
            {changeText(v)}
          </Typography.Text>
        ),
      },
      {
        title: t('word.covered'),
        dataIndex: 'covered',
        width: 150,
        render: (v: number, row) => <CoveredTag count={v} testId={`${testId}-covered-${row.word}`} />,
      },
      collectColumn<T>(t, testId, collector),
    ],
    [t, testId, collector],
  );
}
