/**
 * Add / edit one dictionary: a ConfigForm (name, title, options) in a dialog; the options are an
 * EditableTable (label, value) passed to the form as an extra component. Saving replaces the whole
 * dictionary (`POST /system/dic/save`, keyed by name), so the name is fixed once it exists.
 */
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Form } from 'antd';
import type { RuleObject } from 'antd/es/form';
import { useWrite } from '@/api/mutations';
import { saveDic, systemKeys } from '@/api/system';
import type { DicOption, DicRow } from '@/api/system/types';
import { RequestError } from '@/api/request';
import ConfigForm, { type ComponentRenderer, type ConfigFormRef, type FormItemConfig } from '@/components/ConfigForm';
import EditableTable, { type EditableColumn, type EditableTableRef } from '@/components/EditableTable';
import { FullscreenModal } from '@/components/ModalForm';

/** Dictionary names: lower-case letters, digits and '_' (the server takes at most 64). */
export const DIC_NAME_RE = /^[a-z0-9_]{1,64}$/;

export interface DicValues {
  name?: unknown;
  title?: unknown;
  options?: Array<Partial<Record<keyof DicOption, unknown>>>;
}

/** The body of POST /system/dic/save built from the form values (texts trimmed, values as strings). */
export function dicPayload(values: DicValues): { name: string; title: string; options: DicOption[] } {
  const text = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());
  return {
    name: text(values.name),
    title: text(values.title),
    options: (values.options ?? []).map((o) => ({ label: text(o.label), value: text(o.value) })),
  };
}

/** The first problem of an options list: none, an empty cell, or a repeated value. */
export function optionsProblem(options: DicValues['options']): 'empty' | 'cell' | { repeated: string } | null {
  const rows = dicPayload({ options }).options;
  if (!rows.length) return 'empty';
  if (rows.some((o) => !o.label || !o.value)) return 'cell';
  const seen = new Set<string>();
  for (const o of rows) {
    if (seen.has(o.value)) return { repeated: o.value };
    seen.add(o.value);
  }
  return null;
}

export interface DicFormModalProps {
  /** null: closed; {row: null}: a new dictionary. */
  editing: { row: DicRow | null } | null;
  onClose: () => void;
  onSaved: (row: DicRow) => void;
}

export default function DicFormModal({ editing, onClose, onSaved }: DicFormModalProps) {
  const { t } = useTranslation('system');
  const form = useRef<ConfigFormRef>(null);
  // the dialog's own form instance, so closing it once something was typed asks first
  const [fields] = Form.useForm();
  const optionsTable = useRef<EditableTableRef>(null);
  // every select of this dictionary (the preview included) reads the new options
  const saving = useWrite(saveDic, systemKeys.all, (row) => systemKeys.dic(row?.name ?? ''));
  const row = editing?.row ?? null;

  const optionColumns = useMemo<EditableColumn<DicOption>[]>(
    () => [
      { title: t('dic.label'), dataIndex: 'label', required: true, placeholder: t('dic.labelPlaceholder') },
      { title: t('dic.value'), dataIndex: 'value', required: true, width: 160, placeholder: t('dic.valuePlaceholder') },
    ],
    [t],
  );

  const components = useMemo<Record<string, ComponentRenderer>>(
    () => ({
      options: ({ testId }) => <EditableTable<DicOption> ref={optionsTable} columns={optionColumns} newRow={() => ({ label: '', value: '' })} testId={testId} />,
    }),
    [optionColumns],
  );

  const items = useMemo<FormItemConfig[]>(
    () => [
      {
        component: 'input',
        name: 'name',
        label: t('dic.name'),
        span: 12,
        tips: row ? t('dic.nameFixed') : t('dic.nameTips'),
        rules: [
          { required: true, message: t('dic.nameRequired') },
          { pattern: DIC_NAME_RE, message: t('dic.nameRule') },
        ],
        options: { maxlength: 64, placeholder: 'order_state', props: { disabled: Boolean(row), autoComplete: 'off' } },
      },
      {
        component: 'input',
        name: 'title',
        label: t('dic.title'),
        span: 12,
        rules: [{ required: true, whitespace: true, message: t('dic.titleRequired') }],
        options: { maxlength: 64, placeholder: t('dic.titlePlaceholder') },
      },
      {
        component: 'options',
        name: 'options',
        label: t('dic.options'),
        tips: t('dic.optionsTips'),
        rules: [
          {
            validator: (_: RuleObject, value: DicValues['options']) => {
              optionsTable.current?.validate();
              const problem = optionsProblem(value);
              if (problem === 'empty') return Promise.reject(new Error(t('dic.optionsRequired')));
              if (problem === 'cell') return Promise.reject(new Error(t('dic.optionsIncomplete')));
              if (problem) return Promise.reject(new Error(t('dic.valueRepeated', { value: problem.repeated })));
              return Promise.resolve();
            },
          },
        ],
      },
    ],
    [t, row],
  );

  const initialValues = useMemo(
    () =>
      row
        ? { name: row.name, title: row.title, options: (row.options ?? []).map((o) => ({ label: o.label, value: String(o.value) })) }
        : { name: '', title: '', options: [{ label: '', value: '' }] },
    [row],
  );

  const submit = async () => {
    const values = await form.current?.submit();
    if (!values) return;
    try {
      onSaved(await saving.mutateAsync(dicPayload(values)));
    } catch (error) {
      if (error instanceof RequestError && error.field) form.current?.form.setFields([{ name: error.field, errors: [error.message] }]);
    }
  };

  return (
    <FullscreenModal
      open={editing !== null}
      title={row ? t('dic.editOf', { name: row.name }) : t('dic.add')}
      width={720}
      testId="dic-modal"
      onCancel={onClose}
      form={fields}
      onOk={submit}
      okText={t('common:save')}
      cancelText={t('common:cancel')}
      confirmLoading={saving.isPending}
      okButtonProps={{ 'data-testid': 'dic-modal-ok' }}
      destroyOnHidden
    >
      {editing ? <ConfigForm ref={form} form={fields} items={items} initialValues={initialValues} components={components} testId="dic-form" /> : null}
    </FullscreenModal>
  );
}
