/**
 * The filter drawer (SPEC §2 "filter drawer (title 'filter')", §3, §4, §5 "Filters", §7, §8, §9):
 * rows of field / operator / value, saved common filters, and a `filterObj` emitted exactly as
 * docs/api-lists.md describes. Loaded lazily (DataTable opens it on demand).
 */
import { CloseOutlined, DeleteOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import { Button, Drawer, Empty, Form, Input, Modal, Popconfirm, Select, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { feedback } from '@/utils/feedback';
import { useWidgetsT } from '../i18n';
import {
  DRAWER_WIDTH,
  OPERATOR_KEY,
  chooseField,
  fieldOperators,
  fromFilterObj,
  isFieldDisabled,
  nextFreeField,
  rowFor,
  toFilterObj,
  type FilterField,
  type FilterObj,
  type FilterRow,
  type SavedFilter,
} from './model';
import { deleteSavedFilter, listSavedFilters, saveFilter, validateFilterName } from './savedFilters';
import ValueInput from './ValueInput';

export interface FilterDrawerProps {
  open: boolean;
  onClose: () => void;
  fields: FilterField[];
  /** The applied rows; the drawer edits a copy of them each time it opens. */
  rows: FilterRow[];
  /** Apply, clear and choosing a saved filter all emit here. */
  onApply: (rows: FilterRow[], filterObj: FilterObj) => void;
  /** Saved filters are kept per user and per scope (the table id). */
  scope: string;
  testId?: string;
}

export default function FilterDrawer({ open, onClose, fields, rows, onApply, scope, testId = 'filter' }: FilterDrawerProps) {
  const { t } = useWidgetsT();
  const [draft, setDraft] = useState<FilterRow[]>(rows);
  const [saved, setSaved] = useState<SavedFilter[]>([]);
  const [loadingSaved, setLoadingSaved] = useState(false);
  const [naming, setNaming] = useState(false);
  const [savingName, setSavingName] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [nameForm] = Form.useForm<{ title: string }>();

  const refreshSaved = async () => {
    setLoadingSaved(true);
    try {
      setSaved(await listSavedFilters(scope));
    } finally {
      setLoadingSaved(false);
    }
  };

  useEffect(() => {
    if (!open) return;
    setDraft(rows.map((r) => ({ ...r })));
    void refreshSaved();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, scope]);

  const fieldOf = (row: FilterRow) => fields.find((f) => f.value === row.field);
  const update = (key: string, change: (row: FilterRow) => FilterRow) => setDraft((list) => list.map((r) => (r.key === key ? change(r) : r)));

  const add = () => {
    const free = nextFreeField(fields, draft);
    if (!free) {
      feedback.warning(t('filter.noItems'));
      return;
    }
    setDraft((list) => [...list, rowFor(free)]);
  };

  const apply = () => {
    onApply(draft, toFilterObj(draft, fields));
    onClose();
  };

  const clear = () => {
    setDraft([]);
    onApply([], {});
  };

  const choose = (filter: SavedFilter) => {
    const next = fromFilterObj(filter.filterObj, fields);
    setDraft(next);
    onApply(next, { ...filter.filterObj });
    onClose();
  };

  const remove = async (filter: SavedFilter) => {
    setDeleting(filter.id);
    try {
      await deleteSavedFilter(scope, filter.id);
      feedback.success(t('filter.deleted'));
      await refreshSaved();
    } finally {
      setDeleting(null);
    }
  };

  const saveAs = async () => {
    let title: string;
    try {
      ({ title } = await nameForm.validateFields());
    } catch {
      return;
    }
    setSavingName(true);
    try {
      const entry = await saveFilter(scope, title, toFilterObj(draft, fields));
      feedback.success(t('filter.savedAs', { name: entry.title }));
      setNaming(false);
      await refreshSaved();
    } catch (error) {
      feedback.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSavingName(false);
    }
  };

  const noRows = draft.length === 0;

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('filter.title')}
      size={DRAWER_WIDTH}
      data-testid={`${testId}-drawer`}
      footer={
        <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
          <Button onClick={clear} data-testid={`${testId}-clear`}>
            {t('filter.clear')}
          </Button>
          <Space>
            <Button
              icon={<SaveOutlined />}
              disabled={noRows}
              onClick={() => {
                nameForm.resetFields();
                setNaming(true);
              }}
              data-testid={`${testId}-save`}
            >
              {t('filter.saveAs')}
            </Button>
            <Button type="primary" disabled={noRows} onClick={apply} data-testid={`${testId}-apply`}>
              {t('filter.apply')}
            </Button>
          </Space>
        </div>
      }
    >
      <div style={{ marginBottom: 16 }} data-testid={`${testId}-saved`}>
        <Typography.Text strong>{t('filter.common')}</Typography.Text>
        <div style={{ marginTop: 8, minHeight: 32 }}>
          <Spin spinning={loadingSaved} size="small">
            {saved.length ? (
              <Space wrap size={[8, 8]}>
                {saved.map((filter, index) => (
                  <Tag key={filter.id} color="blue" style={{ padding: '2px 4px 2px 8px', marginInlineEnd: 0 }}>
                    <Typography.Link onClick={() => choose(filter)} data-testid={`${testId}-saved-${index}`}>
                      {filter.title}
                    </Typography.Link>
                    <Popconfirm
                      title={t('filter.deleteConfirm')}
                      onConfirm={() => remove(filter)}
                      okText={t('common:delete')}
                      cancelText={t('common:cancel')}
                      okButtonProps={{ danger: true, loading: deleting === filter.id, 'data-testid': `${testId}-saved-delete-ok` }}
                    >
                      <Button
                        type="text"
                        size="small"
                        icon={<CloseOutlined />}
                        aria-label={t('common:delete')}
                        data-testid={`${testId}-saved-delete-${index}`}
                        style={{ marginLeft: 4 }}
                      />
                    </Popconfirm>
                  </Tag>
                ))}
              </Space>
            ) : !loadingSaved ? (
              <Typography.Text type="secondary">{t('filter.noCommon')}</Typography.Text>
            ) : null}
          </Spin>
        </div>
      </div>

      <Typography.Text strong>{t('filter.conditions')}</Typography.Text>
      <div style={{ marginTop: 8 }}>
        {draft.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('filter.noRows')} /> : null}
        {draft.map((row, index) => {
          const field = fieldOf(row);
          const ops = field ? fieldOperators(field) : [];
          return (
            <div key={row.key} style={{ display: 'flex', gap: 8, marginBottom: 8, alignItems: 'center' }} data-testid={`${testId}-row-${index}`}>
              <Select
                style={{ width: 150, flex: 'none' }}
                placeholder={t('filter.field')}
                value={row.field}
                showSearch={{ optionFilterProp: 'label' }}
                onChange={(value: string) => update(row.key, (r) => chooseField(r, fields.find((f) => f.value === value)))}
                options={fields.map((f) => ({ value: f.value, label: f.label, disabled: isFieldDisabled(f, draft, row.key) }))}
                data-testid={`${testId}-field-${index}`}
              />
              <Select
                style={{ width: 120, flex: 'none' }}
                value={row.operator}
                disabled={!field || ops.length < 2}
                onChange={(operator) => update(row.key, (r) => ({ ...r, operator }))}
                options={ops.map((op) => ({ value: op, label: t(`filter.op.${OPERATOR_KEY[op]}`) }))}
                data-testid={`${testId}-operator-${index}`}
              />
              <div style={{ flex: 1, minWidth: 0 }}>
                <ValueInput field={field} value={row.value} onChange={(value) => update(row.key, (r) => ({ ...r, value }))} testId={`${testId}-value-${index}`} />
              </div>
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('common:delete')}
                onClick={() => setDraft((list) => list.filter((r) => r.key !== row.key))}
                data-testid={`${testId}-remove-${index}`}
              />
            </div>
          );
        })}
        <Button type="dashed" block icon={<PlusOutlined />} onClick={add} data-testid={`${testId}-add`}>
          {t('filter.add')}
        </Button>
      </div>

      <Modal
        open={naming}
        title={t('filter.saveAs')}
        onCancel={() => setNaming(false)}
        onOk={saveAs}
        confirmLoading={savingName}
        okText={t('common:save')}
        cancelText={t('common:cancel')}
        destroyOnHidden
        okButtonProps={{ 'data-testid': `${testId}-name-ok` }}
      >
        <Form form={nameForm} layout="vertical" preserve={false}>
          <Form.Item
            name="title"
            label={t('filter.name')}
            rules={[
              {
                validator: (_, value: string | undefined) => {
                  const invalid = validateFilterName(value);
                  return invalid ? Promise.reject(new Error(invalid)) : Promise.resolve();
                },
              },
            ]}
          >
            <Input maxLength={30} autoFocus data-testid={`${testId}-name`} onPressEnter={saveAs} />
          </Form.Item>
        </Form>
      </Modal>
    </Drawer>
  );
}
