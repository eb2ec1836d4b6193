import { Select } from 'antd';
import type { CategoryNode } from './CategoryTree';
import { useMaterialsT } from '../i18n';

/** Options of a category tree, indented by depth; 0 = uncategorised. */
export function categoryOptions(nodes: readonly CategoryNode[] | undefined, depth = 0): { value: number; label: string }[] {
  return (nodes ?? []).flatMap((n) => [{ value: n.id, label: `${'\u3000'.repeat(depth)}${n.name}` }, ...categoryOptions(n.children, depth + 1)]);
}

/** Moves one file to another category. */
export default function CategorySelect({
  id,
  value,
  nodes,
  onChange,
}: {
  id: number;
  value: number;
  nodes: readonly CategoryNode[] | undefined;
  onChange: (fileTypeId: number) => void;
}) {
  const { t } = useMaterialsT();
  return (
    <Select<number>
      size="small"
      style={{ width: 150 }}
      value={value || 0}
      onChange={onChange}
      options={[{ value: 0, label: t('category.none') }, ...categoryOptions(nodes)]}
      data-testid={`category-select-${id}`}
      popupMatchSelectWidth={false}
    />
  );
}
