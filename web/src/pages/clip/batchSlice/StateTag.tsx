import { Tag } from 'antd';
import type { SourceState } from '@/api/clip/slice';
import { useSliceT } from './i18n';

const COLORS: Record<SourceState, string> = { pending: 'default', processing: 'processing', success: 'success', failed: 'error' };

/** A source's or project's slicing state. */
export function StateTag({ state }: { state: SourceState }) {
  const { t } = useSliceT();
  return (
    <Tag color={COLORS[state] ?? 'default'} data-state={state}>
      {t(`state.${state}`)}
    </Tag>
  );
}
