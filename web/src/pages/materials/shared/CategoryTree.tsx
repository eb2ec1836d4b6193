/**
 * A tree of categories with add (root or child), rename and delete: the classify tree of /video and
 * the file types of /music and /image. Selecting a node filters the page; "All" clears the choice.
 */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Popconfirm, Spin, Tooltip, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useState, type ReactNode } from 'react';
import { materialsKeys } from '@/api/materials';
import { useWrite } from '@/api/mutations';
import { useMaterialsT } from '../i18n';
import './materials.css';
import type { NameRequest } from './NameModal';

export interface CategoryNode {
  id: number;
  name: string;
  children?: CategoryNode[];
}

export interface CategoryTreeProps {
  title: ReactNode;
  testId: string;
  nodes: CategoryNode[] | undefined;
  loading?: boolean;
  selected?: number;
  onSelect: (id: number | undefined, node?: CategoryNode) => void;
  /** The writes; each marks the area stale, so the tree and its files read again. */
  onAdd?: (name: string, parentId: number) => Promise<unknown>;
  onRename?: (id: number, name: string) => Promise<unknown>;
  onDelete?: (id: number) => Promise<unknown>;
  /** Whether children can be added under a node (default true). */
  nested?: boolean;
  /** Most characters of a name. */
  maxName?: number;
  /** Text of the delete confirmation. */
  deleteConfirm?: (node: CategoryNode) => string;
  /** Opens the page's name dialog. */
  askName: (request: NameRequest) => void;
}

/** Ids of a node and everything under it (what "this category" means for a filter). */
export function subtreeIds(nodes: readonly CategoryNode[] | undefined, id: number): number[] {
  const find = (list: readonly CategoryNode[]): CategoryNode | undefined => {
    for (const n of list) {
      if (n.id === id) return n;
      const inner = n.children && find(n.children);
      if (inner) return inner;
    }
    return undefined;
  };
  const collect = (n: CategoryNode): number[] => [n.id, ...(n.children ?? []).flatMap(collect)];
  const node = find(nodes ?? []);
  return node ? collect(node) : [id];
}

/** Builds a tree from flat rows with parent_id. */
export function treeOf<T extends { id: number; name: string; parent_id: number }>(rows: readonly T[], parent = 0): CategoryNode[] {
  return rows.filter((r) => r.parent_id === parent).map((r) => ({ id: r.id, name: r.name, children: treeOf(rows, r.id) }));
}

export default function CategoryTree({
  title,
  testId,
  nodes,
  loading,
  selected,
  onSelect,
  onAdd,
  onRename,
  onDelete,
  nested = true,
  maxName = 30,
  deleteConfirm,
  askName: setNaming,
}: CategoryTreeProps) {
  const { t } = useMaterialsT();
  // a category added, renamed or deleted marks the area stale: the tree and the files in it read again
  const adding = useWrite(({ name, parentId }: { name: string; parentId: number }) => onAdd!(name, parentId), materialsKeys.all);
  const renaming = useWrite(({ id, name }: { id: number; name: string }) => onRename!(id, name), materialsKeys.all);
  const removal = useWrite((id: number) => onDelete!(id), materialsKeys.all);
  // every node open unless the user closed it
  const [collapsed, setCollapsed] = useState<Set<number>>(() => new Set());
  const allKeys = (list: readonly CategoryNode[]): number[] => list.flatMap((n) => (n.children?.length ? [n.id, ...allKeys(n.children)] : []));

  const title_ = (n: CategoryNode): ReactNode => (
    <span className="cm-tree-node" data-testid={`${testId}-node-${n.id}`}>
      <span className="cm-tree-node-name">{n.name}</span>
      <span className="cm-tree-node-actions" onClick={(e) => e.stopPropagation()}>
        {onAdd && nested ? (
          <Tooltip title={t('category.addChild')}>
            <Button
              type="text"
              size="small"
              icon={<PlusOutlined />}
              aria-label={t('category.addChild')}
              data-testid={`${testId}-add-${n.id}`}
              onClick={() => setNaming({ title: t('category.addChild'), max: maxName, submit: (name) => adding.mutateAsync({ name, parentId: n.id }) })}
            />
          </Tooltip>
        ) : null}
        {onRename ? (
          <Tooltip title={t('rename')}>
            <Button
              type="text"
              size="small"
              icon={<EditOutlined />}
              aria-label={t('rename')}
              data-testid={`${testId}-rename-${n.id}`}
              onClick={() => setNaming({ title: t('rename'), name: n.name, max: maxName, submit: (name) => renaming.mutateAsync({ id: n.id, name }) })}
            />
          </Tooltip>
        ) : null}
        {onDelete ? (
          <Popconfirm
            title={deleteConfirm ? deleteConfirm(n) : t('category.deleteConfirm', { name: n.name })}
            okText={t('common:delete')}
            cancelText={t('common:cancel')}
            okButtonProps={{ danger: true, 'data-testid': `${testId}-delete-ok` } as never}
            onConfirm={async () => {
              await removal.mutateAsync(n.id).catch(() => undefined);
            }}
          >
            <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('common:delete')} data-testid={`${testId}-delete-${n.id}`} />
          </Popconfirm>
        ) : null}
      </span>
    </span>
  );

  const toData = (list: readonly CategoryNode[]): DataNode[] =>
    list.map((n) => ({ key: n.id, title: title_(n), children: n.children?.length ? toData(n.children) : undefined }));

  return (
    <Card
      size="small"
      title={title}
      data-testid={testId}
      extra={
        onAdd ? (
          <Tooltip title={t('category.add')}>
            <Button
              type="text"
              size="small"
              icon={<PlusOutlined />}
              aria-label={t('category.add')}
              data-testid={`${testId}-add`}
              onClick={() => setNaming({ title: t('category.add'), max: maxName, submit: (name) => adding.mutateAsync({ name, parentId: 0 }) })}
            />
          </Tooltip>
        ) : null
      }
      styles={{ body: { padding: 8 } }}
    >
      <div
        className={`cm-tree-all${selected === undefined ? ' cm-tree-all-active' : ''}`}
        role="button"
        tabIndex={0}
        onClick={() => onSelect(undefined)}
        onKeyDown={(e) => e.key === 'Enter' && onSelect(undefined)}
        data-testid={`${testId}-all`}
      >
        {t('category.all')}
      </div>
      <Spin spinning={Boolean(loading)}>
        {nodes?.length ? (
          <Tree
            blockNode
            treeData={toData(nodes)}
            expandedKeys={allKeys(nodes).filter((k) => !collapsed.has(k))}
            onExpand={(keys) => {
              const open = new Set(keys.map(Number));
              setCollapsed(new Set(allKeys(nodes).filter((k) => !open.has(k))));
            }}
            selectedKeys={selected !== undefined ? [selected] : []}
            onSelect={(keys) => {
              const id = keys.length ? Number(keys[0]) : undefined;
              const find = (list: readonly CategoryNode[]): CategoryNode | undefined =>
                list.reduce<CategoryNode | undefined>((hit, n) => hit ?? (n.id === id ? n : find(n.children ?? [])), undefined);
              onSelect(id, id !== undefined ? find(nodes) : undefined);
            }}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('category.empty')} />
        )}
      </Spin>
    </Card>
  );
}
