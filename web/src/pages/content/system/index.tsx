/**
 * /system/content (Administrator): the courses of the four course pages, the home banners and the
 * update log, each a tab with its list and add / edit / delete dialogs (docs/architecture.md "Content").
 */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, Popconfirm, Select, Space, Tabs, Tag, Typography } from 'antd';
import { type ReactNode, useCallback, useMemo, useState } from 'react';
import { contentKeys, contentUrls, deleteBanner, deleteCourse, deleteVersion } from '@/api/content';
import { useWrite } from '@/api/mutations';
import type { Banner, Course, VersionEntry } from '@/api/content/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { contentT, useContentT } from '../i18n';
import BannerForm from './BannerForm';
import CourseForm from './CourseForm';
import { CATEGORIES } from './rules';
import VersionForm from './VersionForm';

type Row = { id: number };

/** Edit and delete buttons of one row; deleting asks first, then marks the area stale (the list reads again). */
function RowActions<T extends Row>({ prefix, row, name, onEdit, remove }: { prefix: string; row: T; name: string; onEdit: (row: T) => void; remove: (id: number) => Promise<unknown> }) {
  const { t } = useContentT();
  const removal = useWrite(remove, contentKeys.all);
  return (
    <Space size={0}>
      <Button type="link" size="small" icon={<EditOutlined />} onClick={() => onEdit(row)} data-testid={`${prefix}-edit-${row.id}`}>
        {t('common:edit')}
      </Button>
      <Popconfirm
        title={t('action.deleteConfirm', { title: name })}
        okText={t('common:delete')}
        cancelText={t('common:cancel')}
        okButtonProps={{ danger: true, 'data-testid': `${prefix}-delete-ok-${row.id}` } as never}
        onConfirm={async () => {
          try {
            await removal.mutateAsync(row.id);
            feedback.success(t('common:deletedSuccessfully'));
          } catch {
            /* toasted */
          }
        }}
      >
        <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`${prefix}-delete-${row.id}`}>
          {t('common:delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
}

function Published({ on }: { on: boolean }) {
  const { t } = useContentT();
  return <Tag color={on ? 'green' : 'default'}>{t(on ? 'action.published' : 'action.draft')}</Tag>;
}

interface CrudTabProps<T extends Row> {
  id: string;
  api: string;
  columns: (edit: (row: T) => void) => DataTableColumn<T>[];
  params?: Record<string, unknown>;
  scrollX: number;
  addText: string;
  addTestId: string;
  /** More of the toolbar after the add button (filters). */
  extra?: ReactNode;
  /** The row's dialog; `editing` undefined = closed, null = new. */
  dialog: (editing: T | null | undefined, close: () => void) => ReactNode;
}

/** A tab: the list with its add button, and the add / edit dialog; a save or delete marks the area stale. */
function CrudTab<T extends Row>({ id, api, columns, params, scrollX, addText, addTestId, extra, dialog }: CrudTabProps<T>) {
  const [editing, setEditing] = useState<T | null | undefined>(undefined);
  const cols = useMemo(() => columns(setEditing), [columns]);
  return (
    <>
      <DataTable<T>
        id={id}
        queryKey={contentKeys.all}
        api={api}
        method="post"
        params={params}
        columns={cols}
        scrollX={scrollX}
        toolbar={
          <Space wrap>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid={addTestId}>
              {addText}
            </Button>
            {extra}
          </Space>
        }
      />
      {dialog(editing, () => setEditing(undefined))}
    </>
  );
}

const actions = <T extends Row>(prefix: string, name: (row: T) => string, remove: (id: number) => Promise<unknown>, edit: (row: T) => void): DataTableColumn<T> => ({
  title: contentT('common:actions'),
  key: 'actions',
  fixed: 'right',
  width: 170,
  render: (_, row) => <RowActions prefix={prefix} row={row} name={name(row)} onEdit={edit} remove={remove} />,
});

function CoursesTab() {
  const { t } = useContentT();
  const [title, setTitle] = useState('');
  const [category, setCategory] = useState<string>('');
  const columns = useCallback(
    (edit: (row: Course) => void): DataTableColumn<Course>[] => [
      { title: t('field.title'), dataIndex: 'title', sorter: true, width: 240, render: (v: string, row) => <span data-testid={`course-title-${row.id}`}>{v}</span> },
      { title: t('field.titleEn'), dataIndex: 'title_en', width: 200 },
      { title: t('field.category'), dataIndex: 'category', width: 140, render: (v: string) => t(`category.${v}`) },
      { title: t('field.kind'), dataIndex: 'body_kind', width: 90, render: (v: string) => t(`kind.${v}`) },
      { title: t('field.published'), dataIndex: 'published', width: 90, render: (v: boolean) => <Published on={v} /> },
      { title: t('field.sort'), dataIndex: 'sort', sorter: true, width: 80 },
      { title: t('field.updatedAt'), dataIndex: 'updated_at', width: 170, render: formatTime },
      actions<Course>('course', (r) => r.title, deleteCourse, edit),
    ],
    [t],
  );
  const params = useMemo(() => ({ ...(title ? { title } : {}), ...(category ? { category } : {}) }), [title, category]);
  return (
    <CrudTab<Course>
      id="content-courses"
      api={contentUrls.courses}
      params={params}
      columns={columns}
      scrollX={1180}
      addText={t('action.addCourse')}
      addTestId="course-add"
      extra={
        <>
          <Select
            style={{ width: 180 }}
            value={category}
            onChange={setCategory}
            options={[{ value: '', label: t('action.allCategories') }, ...CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))]}
            data-testid="course-filter-category"
          />
          <Input.Search allowClear placeholder={t('action.search')} onSearch={(v) => setTitle(v.trim())} style={{ width: 220 }} data-testid="course-search" />
        </>
      }
      dialog={(editing, close) => <CourseForm course={editing} onClose={close} onSaved={close} />}
    />
  );
}

function BannersTab() {
  const { t } = useContentT();
  const columns = useCallback(
    (edit: (row: Banner) => void): DataTableColumn<Banner>[] => [
      { title: t('field.image'), dataIndex: 'image', width: 140, render: (v: string) => <img src={v} alt="" style={{ height: 40, maxWidth: 120, objectFit: 'cover' }} /> },
      { title: t('field.title'), dataIndex: 'title', sorter: true, width: 220, render: (v: string, row) => <span data-testid={`banner-title-${row.id}`}>{v}</span> },
      { title: t('field.link'), dataIndex: 'link', width: 240, render: (v: string) => <Typography.Text ellipsis>{v}</Typography.Text> },
      { title: t('field.published'), dataIndex: 'published', width: 90, render: (v: boolean) => <Published on={v} /> },
      { title: t('field.sort'), dataIndex: 'sort', sorter: true, width: 80 },
      { title: t('field.updatedAt'), dataIndex: 'updated_at', width: 170, render: formatTime },
      actions<Banner>('banner', (r) => r.title, deleteBanner, edit),
    ],
    [t],
  );
  return (
    <CrudTab<Banner>
      id="content-banners"
      api={contentUrls.banners}
      columns={columns}
      scrollX={1110}
      addText={t('action.addBanner')}
      addTestId="banner-add"
      dialog={(editing, close) => <BannerForm banner={editing} onClose={close} onSaved={close} />}
    />
  );
}

function VersionsTab() {
  const { t } = useContentT();
  const columns = useCallback(
    (edit: (row: VersionEntry) => void): DataTableColumn<VersionEntry>[] => [
      { title: t('field.version'), dataIndex: 'version', sorter: true, width: 110, render: (v: string, row) => <Tag color="blue" data-testid={`version-${row.id}`}>v{v}</Tag> },
      { title: t('field.content'), dataIndex: 'content', width: 360, render: (v: string) => <div style={{ whiteSpace: 'pre-line' }}>{v}</div> },
      { title: t('field.contentEn'), dataIndex: 'content_en', width: 360, render: (v: string) => <div style={{ whiteSpace: 'pre-line' }}>{v}</div> },
      { title: t('common:createdAt'), dataIndex: 'created_at', sorter: true, width: 170, render: formatTime },
      actions<VersionEntry>('version', (r) => `v${r.version}`, deleteVersion, edit),
    ],
    [t],
  );
  return (
    <CrudTab<VersionEntry>
      id="content-versions"
      api={contentUrls.versions}
      columns={columns}
      scrollX={1170}
      addText={t('action.addVersion')}
      addTestId="version-add"
      dialog={(editing, close) => <VersionForm entry={editing} onClose={close} onSaved={close} />}
    />
  );
}

export default function ContentPage() {
  const { t } = useContentT();
  return (
    <div data-testid="content-page">
      <PageHeader title={t('common:menu.systemContent')} subTitle={t('page.subtitle')} />
      <Tabs
        destroyOnHidden
        items={[
          { key: 'courses', label: t('page.courses'), children: <CoursesTab /> },
          { key: 'banners', label: t('page.banners'), children: <BannersTab /> },
          { key: 'versions', label: t('page.versions'), children: <VersionsTab /> },
        ]}
      />
    </div>
  );
}
