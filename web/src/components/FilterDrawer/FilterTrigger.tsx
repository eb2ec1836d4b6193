import { FilterOutlined } from '@ant-design/icons';
import { Badge, Button } from 'antd';
import { useWidgetsT } from '../i18n';

/** The toolbar button of the filter drawer; the badge is the number of active filter rows. */
export default function FilterTrigger({ count, onClick, testId = 'filter' }: { count: number; onClick: () => void; testId?: string }) {
  const { t } = useWidgetsT();
  return (
    <Badge count={count} size="small" data-testid={`${testId}-badge`} data-count={count}>
      <Button icon={<FilterOutlined />} onClick={onClick} data-testid={`${testId}-open`}>
        {t('filter.title')}
      </Button>
    </Badge>
  );
}
