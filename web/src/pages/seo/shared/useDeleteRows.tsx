/**
 * Deleting rows of an SEO table (collected words, saved titles, lexicon words, built-in keywords): a
 * row's delete link and the toolbar's button for the picked rows, each behind a confirmation; the table
 * reads again (the write marks the area stale). The picked rows are kept for the page's other bulk actions.
 */
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useWrite } from '@/api/mutations';
import { seoKeys } from '@/api/seo';
import type { IdOrIds } from '@/api/seo/types';
import type { DataTableColumn } from '@/components/DataTable';
import { feedback } from '@/utils/feedback';
import { useSeoT } from '../i18n';

export function useDeleteRows<T extends { id: number }>(call: (ids: IdOrIds) => Promise<unknown>, testId: string) {
  const { t } = useSeoT();
  const write = useWrite(call, seoKeys.all);
  const [picked, setPicked] = useState<T[]>([]);
  const remove = async (ids: IdOrIds) => {
    try {
      await write.mutateAsync(ids);
      feedback.success(t('common:deletedSuccessfully'));
      setPicked([]);
    } catch {
      /* toasted */
    }
  };
  const button = (ids: IdOrIds, label: string, id: string, link: boolean) => (
    <Popconfirm
      title={Array.isArray(ids) ? t('del.many', { count: ids.length }) : t('del.one', { name: label })}
      okText={t('common:delete')}
      cancelText={t('common:cancel')}
      okButtonProps={{ danger: true, 'data-testid': `${id}-ok` } as never}
      disabled={Array.isArray(ids) && !ids.length}
      onConfirm={() => remove(ids)}
    >
      <Button type={link ? 'link' : 'default'} size={link ? 'small' : undefined} danger icon={<DeleteOutlined />} disabled={Array.isArray(ids) && !ids.length} data-testid={id}>
        {t('common:delete')}
      </Button>
    </Popconfirm>
  );
  /** The actions column: edit (when `onEdit` is given) and delete; `label` names the row in the question. */
  const actionsColumn = (label: (row: T) => string, onEdit?: (row: T) => void): DataTableColumn<T> => ({
    title: t('common:actions'),
    key: 'actions',
    width: onEdit ? 170 : 100,
    fixed: 'right',
    render: (_, row) => (
      <Space size={0}>
        {onEdit ? (
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => onEdit(row)} data-testid={`${testId}-edit-${row.id}`}>
            {t('common:edit')}
          </Button>
        ) : null}
        {button(row.id, label(row), `${testId}-delete-${row.id}`, true)}
      </Space>
    ),
  });
  return {
    picked,
    actionsColumn,
    /** For DataTable's `onSelectionChange`. */
    onSelect: (_keys: unknown, rows: T[]) => setPicked(rows),
    /** The toolbar's button for the picked rows. */
    many: () =>
      button(
        picked.map((r) => r.id),
        '',
        `${testId}-delete-many`,
        false,
      ),
  };
}
