/**
 * The saved titles (docs/api-seo.md `index`, `ai_edit`, `ai_delete`): filters by title, category and
 * date; edit a title and its category; delete one or the picked ones; copy the picked ones.
 */
import { CopyOutlined } from '@ant-design/icons';
import { Button, Form, Input, Select, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useWrite } from '@/api/mutations';
import { deleteSavedTitles, editSavedTitle, seoKeys, seoUrls } from '@/api/seo';
import type { AiTitle } from '@/api/seo/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import ModalForm from '@/components/ModalForm';
import { copyText } from '@/utils/copy';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { titleFilterFields } from '../filters';
import { useSeoT } from '../i18n';
import { charCount, TITLE_MAX } from '../rules';
import { useCategories } from '../shared/useCategories';
import { useDeleteRows } from '../shared/useDeleteRows';

interface EditValues {
  title: string;
  category_id?: number;
}

export default function TitleLibrary() {
  const { t } = useSeoT();
  const categories = useCategories();
  const [editing, setEditing] = useState<AiTitle | null>(null);
  const [form] = Form.useForm<EditValues>();
  const edit = useWrite(({ id, title, categoryId }: { id: number; title: string; categoryId?: number }) => editSavedTitle(id, title, categoryId), seoKeys.all);

  const del = useDeleteRows<AiTitle>(deleteSavedTitles, 'title');
  const picked = del.picked;

  const columns = useMemo<DataTableColumn<AiTitle>[]>(
    () => [
      { title: t('title.title'), dataIndex: 'title', width: 380, render: (v: string, row) => <span data-testid={`title-text-${row.id}`}>{v}</span> },
      { title: t('title.category'), dataIndex: 'category_name', width: 140 },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, sorter: true, render: formatTime },
      del.actionsColumn((row) => row.title, setEditing),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const filterFields = useMemo(() => titleFilterFields(t, categories.options), [t, categories.options]);

  return (
    <>
      <DataTable<AiTitle>
        id="seo-titles"
        queryKey={seoKeys.all}
        api={seoUrls.titles}
        method="post"
        columns={columns}
        filterFields={filterFields}
        selectable
        onSelectionChange={del.onSelect}
        scrollX={860}
        toolbar={
          <Space>
            <Button icon={<CopyOutlined />} disabled={!picked.length} onClick={() => void copyText(picked.map((r) => r.title).join('\n'))} data-testid="titles-copy">
              {t('gen.copy', { count: picked.length })}
            </Button>
            {del.many()}
          </Space>
        }
      />
      <ModalForm<EditValues>
        open={editing !== null}
        form={form}
        title={t('title.editTitle')}
        testId="title-form"
        initialValues={editing ? { title: editing.title, category_id: editing.category_id || undefined } : undefined}
        onCancel={() => setEditing(null)}
        onSubmit={async (v) => {
          await edit.mutateAsync({ id: editing!.id, title: v.title.trim(), categoryId: v.category_id });
          feedback.success(t('common:savedSuccessfully'));
          setEditing(null);
        }}
      >
        <Form.Item
          name="title"
          label={t('title.title')}
          rules={[
            { required: true, whitespace: true, message: t('title.required') },
            { validator: async (_, v: string) => (charCount(v?.trim()) > TITLE_MAX ? Promise.reject(new Error(t('title.tooLong', { max: TITLE_MAX }))) : undefined) },
          ]}
        >
          <Input showCount maxLength={TITLE_MAX} data-testid="title-form-title" />
        </Form.Item>
        <Form.Item name="category_id" label={t('title.category')}>
          <Select<number> allowClear options={categories.options} loading={categories.loading} data-testid="title-form-category" />
        </Form.Item>
      </ModalForm>
    </>
  );
}
