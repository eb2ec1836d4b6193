/**
 * The visible mark on anything the bundled sandbox made up ("模拟数据 / Simulated"): figures from
 * accounts authorized against the sandbox, hot lists and SEO figures it answered. Real data never
 * carries it; simulated data never goes without it.
 */
import { ExperimentOutlined } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import { useWidgetsT } from '../i18n';

export interface SimulatedTagProps {
  /** Figures summed over accounts: how many of them are the sandbox's (said in the tooltip). */
  accounts?: number;
  testId?: string;
}

export default function SimulatedTag({ accounts, testId = 'simulated-tag' }: SimulatedTagProps) {
  const { t } = useWidgetsT();
  const detail = accounts ? t('simulated.accounts', { count: accounts }) : '';
  return (
    <Tooltip title={detail ? `${t('simulated.help')} ${detail}` : t('simulated.help')}>
      <Tag color="orange" icon={<ExperimentOutlined />} data-testid={testId} data-source="sandbox">
        {t('simulated.label')}
      </Tag>
    </Tooltip>
  );
}
