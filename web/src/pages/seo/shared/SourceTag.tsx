/**
 * Where the SEO figures on a page come from (the API's `source`, docs/seo-platforms.md): a real source
 * named ("数据来源：抖音开放平台 / TikHub"), the sandbox's simulation with a visible "模拟数据 / Simulated"
 * badge, or — when no configured source provides them — a notice naming the source that would, instead
 * of any number.
 */
import { Alert, Tag } from 'antd';
import SimulatedTag from '@/components/SimulatedTag';
import { useCallback, useState } from 'react';
import type { DataSource } from '@/api/seo/types';
import { useSeoT } from '../i18n';

/** Which figures a notice is about: decides the source it names. */
export type SourceNeed = 'words' | 'hot' | 'hotKs' | 'benchmark' | 'videos';

export function SourceTag({ source, testId = 'data-source' }: { source: DataSource | undefined; testId?: string }) {
  const { t } = useSeoT();
  if (!source || source === 'none') return null;
  if (source === 'sandbox') return <SimulatedTag testId={testId} />;
  return (
    <Tag color="blue" data-testid={testId} data-source={source}>
      {t('source.from', { name: t(`source.names.${source}`) })}
    </Tag>
  );
}

/** The notice shown instead of figures no configured source provides. */
export function NoSource({ need, testId = 'data-source-none' }: { need: SourceNeed; testId?: string }) {
  const { t } = useSeoT();
  return <Alert type="warning" showIcon data-testid={testId} message={t('source.none')} description={t(`source.needs.${need}`)} style={{ marginBottom: 12 }} />;
}

/** The tag, or the notice when there is no source. */
export default function SourceNote({ source, need, testId = 'data-source' }: { source: DataSource | undefined; need: SourceNeed; testId?: string }) {
  if (source === 'none') return <NoSource need={need} testId={`${testId}-none`} />;
  return source ? (
    <div style={{ marginBottom: 8 }}>
      <SourceTag source={source} testId={testId} />
    </div>
  ) : null;
}

/** The `source` of the answers a DataTable loads: pass `onLoad` to the table. */
export function useSource() {
  const [source, setSource] = useState<DataSource>();
  const onLoad = useCallback((_: unknown, raw: unknown) => setSource((raw as { source?: DataSource } | null)?.source), []);
  return { source, onLoad };
}
