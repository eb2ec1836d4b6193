import { Tag, Tooltip } from 'antd';
import { useSeoT } from '../i18n';

/** "Covered by N of your titles" (green) or "not covered yet". */
export default function CoveredTag({ count, testId }: { count: number; testId?: string }) {
  const { t } = useSeoT();
  return (
    <Tooltip title={t('word.coveredTip')}>
      <Tag color={count > 0 ? 'green' : undefined} data-testid={testId}>
        {count > 0 ? t('word.coveredBy', { count }) : t('word.notCovered')}
      </Tag>
    </Tooltip>
  );
}
