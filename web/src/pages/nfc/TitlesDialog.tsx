/**
 * A tag's titles (a tap takes a random one): the list with edit and delete, and a box to add many at
 * once, one per line, that names every line longer than 50 characters before anything is sent. "AI titles"
 * opens the title writer (the operator's LLM or the built-in writer, `GenerateTitlesDialog`) and puts the
 * picked titles in the box.
 */
import { DeleteOutlined, EditOutlined, PlusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Button, Form, Input, Popconfirm, Space, Typography } from 'antd';
import type { Key } from 'react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useMarkStale, useWrite } from '@/api/mutations';
import { addTitles, deleteTitles, editTitle, nfcKeys, nfcUrls } from '@/api/nfc';
import type { Tag, TagTitle } from '@/api/nfc/types';
import { RequestError } from '@/api/request';
import CopyCheckHints from '@/components/CopyCheck';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import ModalForm, { FullscreenModal } from '@/components/ModalForm';
import { atFormField } from '@/pages/activities/shared/errors';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { useNfcT } from './i18n';
import { TITLES_PER_ADD, TITLE_MAX, charCount, longTitleLines, titleLines } from './rules';

const GenerateTitlesDialog = lazy(() => import('@/pages/seo/shared/GenerateTitlesDialog'));

function TitleEdit({ title, onClose, onSaved }: { title: TagTitle | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useNfcT();
  const [form] = Form.useForm<{ title: string }>();
  const save = useWrite(({ id, text }: { id: number; text: string }) => editTitle(id, text), nfcKeys.all);
  return (
    <ModalForm<{ title: string }>
      open={title !== null}
      form={form}
      title={t('titles.editTitle')}
      initialValues={{ title: title?.title ?? '' }}
      onCancel={onClose}
      onSubmit={async (v) => {
        await atFormField(form, save.mutateAsync({ id: title!.id, text: v.title.trim() }), () => 'title');
        feedback.success(t('common:savedSuccessfully'));
        onSaved();
      }}
      testId="title-form"
    >
      <Form.Item
        name="title"
        label={t('titles.one')}
        rules={[
          { required: true, whitespace: true, message: t('rules.titleRequired') },
          {
            validator: async (_, v: string) => {
              if (charCount(v?.trim()) > TITLE_MAX) throw new Error(t('rules.titleTooLong', { max: TITLE_MAX }));
            },
          },
        ]}
      >
        <Input showCount maxLength={TITLE_MAX} data-testid="title-form-input" />
      </Form.Item>
    </ModalForm>
  );
}

/** A title added or removed marks the area stale: the titles here and the tag's count behind the dialog read again. */
export default function TitlesDialog({ tag, onClose }: { tag: Tag | null; onClose: () => void }) {
  const { t } = useNfcT();
  const [text, setText] = useState('');
  const [serverError, setServerError] = useState<string | null>(null);
  const adding = useWrite(({ tagId, titles }: { tagId: number; titles: string[] }) => addTitles(tagId, titles), nfcKeys.all);
  const removal = useWrite(deleteTitles, nfcKeys.all);
  const [selected, setSelected] = useState<Key[]>([]);
  const [editing, setEditing] = useState<TagTitle | null>(null);
  const [generating, setGenerating] = useState(false);

  useEffect(() => {
    if (tag) {
      setText('');
      setServerError(null);
      setSelected([]);
    }
  }, [tag]);

  const lines = useMemo(() => titleLines(text), [text]);
  const tooLong = useMemo(() => longTitleLines(text), [text]);
  const tooMany = lines.length > TITLES_PER_ADD;

  const add = async () => {
    if (!tag || !lines.length || tooLong.length || tooMany) return;
    setServerError(null);
    try {
      const { added } = await adding.mutateAsync({ tagId: tag.id, titles: lines.map((l) => l.title) });
      feedback.success(t('titles.added', { count: added }));
      setText('');
    } catch (e) {
      if (e instanceof RequestError && e.field) setServerError(e.message);
      else if (!(e instanceof RequestError && e.kind === 'aborted')) feedback.error(e instanceof Error ? e.message : String(e));
    }
  };

  const remove = async (ids: number[]) => {
    try {
      await removal.mutateAsync(ids);
      feedback.success(t('common:deletedSuccessfully'));
      setSelected([]);
    } catch {
      /* toasted */
    }
  };

  const columns = useMemo<DataTableColumn<TagTitle>[]>(
    () => [
      { title: t('titles.one'), dataIndex: 'title', render: (v: string, row) => <span data-testid={`title-text-${row.id}`}>{v}</span> },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, render: formatTime },
      {
        title: t('common:actions'),
        key: 'actions',
        width: 150,
        render: (_, row) => (
          <Space size={0}>
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)} data-testid={`title-edit-${row.id}`}>
              {t('common:edit')}
            </Button>
            <Popconfirm
              title={t('titles.deleteConfirm')}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': `title-delete-ok-${row.id}` } as never}
              onConfirm={() => remove([row.id])}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`title-delete-${row.id}`}>
                {t('common:delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const params = useMemo(() => (tag ? { tag_id: tag.id } : undefined), [tag]);
  const markStale = useMarkStale(nfcKeys.all);

  return (
    <FullscreenModal open={tag !== null} title={t('titles.title', { name: tag?.name ?? '' })} width={780} footer={null} onCancel={onClose} destroyOnHidden testId="titles-dialog">
      <div style={{ marginBottom: 16 }}>
        <Input.TextArea
          rows={5}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setServerError(null);
          }}
          status={tooLong.length || tooMany || serverError ? 'error' : undefined}
          placeholder={t('titles.placeholder', { max: TITLE_MAX })}
          data-testid="titles-textarea"
        />
        {/* The copy precheck as the merchant types: the server holds NFC titles to Douyin's rules. */}
        <CopyCheckHints text={text} platforms={['dy']} testId="titles-copy-check" onApply={setText} />
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 12, marginTop: 8 }}>
          <div data-testid="titles-problems">
            <Typography.Text type="secondary">{t('titles.count', { count: lines.length, max: TITLES_PER_ADD })}</Typography.Text>
            {tooLong.map((l) => (
              <div key={l.line} data-testid={`title-problem-${l.line}`}>
                <Typography.Text type="danger">{t('titles.lineTooLong', { line: l.line, length: l.length, max: TITLE_MAX })}</Typography.Text>
              </div>
            ))}
            {tooMany ? (
              <div>
                <Typography.Text type="danger">{t('titles.tooMany', { max: TITLES_PER_ADD })}</Typography.Text>
              </div>
            ) : null}
            {serverError ? (
              <div data-testid="titles-error">
                <Typography.Text type="danger">{serverError}</Typography.Text>
              </div>
            ) : null}
          </div>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            loading={adding.isPending}
            disabled={!lines.length || tooLong.length > 0 || tooMany}
            onClick={() => void add()}
            data-testid="titles-add"
          >
            {t('titles.add')}
          </Button>
        </div>
        <Button icon={<ThunderboltOutlined />} onClick={() => setGenerating(true)} style={{ marginTop: 8 }} data-testid="titles-generate">
          {t('titles.generate')}
        </Button>
      </div>
      {generating ? (
        <Suspense fallback={null}>
          <GenerateTitlesDialog
            open={generating}
            onClose={() => setGenerating(false)}
            maxChars={TITLE_MAX}
            text={tag?.name ?? ''}
            onPick={(picked) => setText((old) => [old.trim(), ...picked].filter(Boolean).join('\n'))}
          />
        </Suspense>
      ) : null}
      {tag ? (
        <DataTable<TagTitle>
          id="titles"
          queryKey={nfcKeys.all}
          api={nfcUrls.titles}
          method="post"
          params={params}
          importer={{
            api: nfcUrls.titleImport,
            templateApi: nfcUrls.titleImportTemplate,
            fields: { tag_id: String(tag.id) },
            name: 'nfc-titles-import',
            hint: t('titles.importHint', { max: TITLE_MAX }),
            onDone: (r: { added: number }) => {
              feedback.success(t('titles.imported', { count: r.added }));
              markStale();
            },
          }}
          columns={columns}
          selectable
          onSelectionChange={(keys) => setSelected(keys)}
          toolbar={
            <Popconfirm
              title={t('titles.deleteSelectedConfirm', { count: selected.length })}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': 'titles-delete-selected-ok' } as never}
              onConfirm={() => remove(selected.map(Number))}
              disabled={!selected.length}
            >
              <Button danger icon={<DeleteOutlined />} disabled={!selected.length} data-testid="titles-delete-selected">
                {t('titles.deleteSelected', { count: selected.length })}
              </Button>
            </Popconfirm>
          }
        />
      ) : null}
      <TitleEdit
        title={editing}
        onClose={() => setEditing(null)}
        onSaved={() => setEditing(null)}
      />
    </FullscreenModal>
  );
}
