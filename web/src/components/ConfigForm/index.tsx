/**
 * Config-driven form (SPEC §2, §3 "Form item", §4 "Form: shows a skeleton until config and remote
 * options load", §5 "Forms", §8 "Unknown form component"). Items:
 *
 *   { component, name, label, value, span (default 24), tips, message,
 *     options: { items, placeholder, maxlength, multiple, remote: { api, data } },
 *     rules, hideHandle, requiredHandle }
 *
 * `hideHandle` / `requiredHandle` are expressions over the other form values (see ./expression:
 * comparisons, &&, ||, !, names and literals — never eval). A failed submit warns 'Form
 * verification failed, please check input!'.
 */
import { Alert, Button, Checkbox, Col, DatePicker, Form, Input, InputNumber, Radio, Row, Select, Skeleton, Space, Switch, type FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import { lazy, Suspense, useEffect, useImperativeHandle, useMemo, useState, type ReactElement, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '@/api/request';
import { feedback } from '@/utils/feedback';
import DictSelect from '../DictSelect';
import { useWidgetsT } from '../i18n';
import { compileExpression } from './expression';

const SingleImageUpload = lazy(() => import('../Upload/SingleImageUpload'));
const MultiImageUpload = lazy(() => import('../Upload/MultiImageUpload'));
const FileUpload = lazy(() => import('../Upload/FileUpload'));

export interface FormOption {
  label: ReactNode;
  value: string | number | boolean;
  disabled?: boolean;
}

export interface FormItemConfig {
  component: string;
  name: string;
  label?: ReactNode;
  /** Initial value. */
  value?: unknown;
  /** Grid span out of 24 (default 24). */
  span?: number;
  /** Help text under the field. */
  tips?: ReactNode;
  /** Message when the field is required and empty. */
  message?: string;
  options?: {
    items?: FormOption[];
    placeholder?: string;
    maxlength?: number;
    multiple?: boolean;
    /** Options loaded from a call: GET api with data, answering [{label, value}] or {rows}. */
    remote?: { api: string; data?: Record<string, unknown> };
    /** Dictionary name for component 'dict'. */
    dict?: string;
    /** Upload endpoint for 'image', 'images' and 'file'. */
    action?: string;
    maxSize?: number;
    limit?: number;
    /** Anything else handed to the component. */
    props?: Record<string, unknown>;
  };
  rules?: Rule[];
  /** Hidden while this expression is true. */
  hideHandle?: string;
  /** Required while this expression is true. */
  requiredHandle?: string;
}

export interface RenderContext {
  item: FormItemConfig;
  options: FormOption[];
  placeholder?: string;
  testId: string;
}

/** A component renderer: returns the control Form.Item binds (value/onChange, or checked). */
export type ComponentRenderer = ((ctx: RenderContext) => ReactElement) & { valuePropName?: string };

function lazyBox(node: ReactElement): ReactElement {
  return <Suspense fallback={<Skeleton.Image active />}>{node}</Suspense>;
}

const withValueProp = (fn: (ctx: RenderContext) => ReactElement, valuePropName: string): ComponentRenderer =>
  Object.assign(fn, { valuePropName });

/** The components a config may name. */
export const COMPONENTS: Record<string, ComponentRenderer> = {
  input: ({ item, placeholder, testId }) => (
    <Input allowClear placeholder={placeholder} maxLength={item.options?.maxlength} showCount={Boolean(item.options?.maxlength)} data-testid={testId} {...item.options?.props} />
  ),
  textarea: ({ item, placeholder, testId }) => (
    <Input.TextArea rows={4} placeholder={placeholder} maxLength={item.options?.maxlength} showCount={Boolean(item.options?.maxlength)} data-testid={testId} {...item.options?.props} />
  ),
  password: ({ item, placeholder, testId }) => <Input.Password placeholder={placeholder} maxLength={item.options?.maxlength} data-testid={testId} {...item.options?.props} />,
  number: ({ item, placeholder, testId }) => <InputNumber style={{ width: '100%' }} placeholder={placeholder} data-testid={testId} {...item.options?.props} />,
  select: ({ item, options, placeholder, testId }) => (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      mode={item.options?.multiple ? 'multiple' : undefined}
      placeholder={placeholder}
      options={options as never}
      data-testid={testId}
      {...item.options?.props}
    />
  ),
  radio: ({ item, options, testId }) => <Radio.Group options={options as never} data-testid={testId} {...item.options?.props} />,
  checkbox: ({ item, options, testId }) => <Checkbox.Group options={options as never} data-testid={testId} {...item.options?.props} />,
  switch: withValueProp(({ item, testId }) => <Switch data-testid={testId} {...item.options?.props} />, 'checked'),
  date: ({ item, placeholder, testId }) => <DatePicker style={{ width: '100%' }} placeholder={placeholder} data-testid={testId} {...item.options?.props} />,
  datetime: ({ item, placeholder, testId }) => <DatePicker showTime style={{ width: '100%' }} placeholder={placeholder} data-testid={testId} {...item.options?.props} />,
  daterange: ({ item, testId }) => <DatePicker.RangePicker style={{ width: '100%' }} data-testid={testId} {...item.options?.props} />,
  datetimerange: ({ item, testId }) => <DatePicker.RangePicker showTime style={{ width: '100%' }} data-testid={testId} {...item.options?.props} />,
  tags: ({ item, placeholder, testId }) => (
    <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[',']} placeholder={placeholder} data-testid={testId} {...item.options?.props} />
  ),
  dict: ({ item, placeholder, testId }) => (
    <DictSelect name={item.options?.dict ?? item.name} multiple={item.options?.multiple} placeholder={placeholder} testId={testId} {...item.options?.props} />
  ),
  image: ({ item, testId }) =>
    lazyBox(<SingleImageUpload action={item.options?.action ?? ''} maxSize={item.options?.maxSize} testId={testId} {...item.options?.props} />),
  images: ({ item, testId }) =>
    lazyBox(
      <MultiImageUpload action={item.options?.action ?? ''} maxSize={item.options?.maxSize} limit={item.options?.limit} testId={testId} {...item.options?.props} />,
    ),
  file: ({ item, testId }) => lazyBox(<FileUpload action={item.options?.action ?? ''} maxSize={item.options?.maxSize} testId={testId} {...item.options?.props} />),
};

const CHOICE_COMPONENTS = new Set(['select', 'radio', 'checkbox']);

function toOptions(data: unknown): FormOption[] {
  const list = Array.isArray(data) ? data : data && typeof data === 'object' && Array.isArray((data as { rows?: unknown }).rows) ? (data as { rows: unknown[] }).rows : [];
  return list
    .filter((o): o is Record<string, unknown> => Boolean(o) && typeof o === 'object')
    .map((o) => ({
      label: (o.label ?? o.name ?? o.title ?? o.value ?? o.id) as ReactNode,
      value: (o.value ?? o.id) as string | number,
      disabled: Boolean(o.disabled),
    }));
}

export interface ConfigFormRef {
  /** Validates and resolves with the values, or null after the failure warning. */
  submit: () => Promise<Record<string, unknown> | null>;
  form: FormInstance;
}

export interface ConfigFormProps {
  /** The items; undefined while they load (the skeleton shows). */
  items?: FormItemConfig[];
  /** Or a loader of the items. */
  loadItems?: () => Promise<FormItemConfig[]>;
  /** Values over the items' own `value`. */
  initialValues?: Record<string, unknown>;
  form?: FormInstance;
  onSubmit?: (values: Record<string, unknown>) => unknown;
  submitText?: ReactNode;
  /** Extra or replacing components. */
  components?: Record<string, ComponentRenderer>;
  layout?: 'vertical' | 'horizontal';
  gutter?: number;
  testId?: string;
  ref?: Ref<ConfigFormRef>;
}

export function isRequired(item: FormItemConfig, values: Record<string, unknown>): boolean {
  if (!item.requiredHandle) return false;
  try {
    return compileExpression(item.requiredHandle)(values);
  } catch {
    return false;
  }
}

export function isHidden(item: FormItemConfig, values: Record<string, unknown>): boolean {
  if (!item.hideHandle) return false;
  try {
    return compileExpression(item.hideHandle)(values);
  } catch {
    return false;
  }
}

export default function ConfigForm({
  items: given,
  loadItems,
  initialValues,
  form: external,
  onSubmit,
  submitText,
  components,
  layout = 'vertical',
  gutter = 16,
  testId = 'config-form',
  ref,
}: ConfigFormProps) {
  const { t } = useTranslation();
  const { t: wt } = useWidgetsT();
  const [own] = Form.useForm();
  const form = external ?? own;
  const [loaded, setLoaded] = useState<FormItemConfig[] | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | null>(null);
  const items = given ?? loaded;
  const [remote, setRemote] = useState<Record<string, FormOption[]>>({});
  const [remotePending, setRemotePending] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  const registry = useMemo(() => ({ ...COMPONENTS, ...components }), [components]);

  useEffect(() => {
    if (given || !loadItems) return;
    let live = true;
    loadItems().then(
      (list) => live && setLoaded(list),
      (error: unknown) => live && setLoadError(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
  }, [given, loadItems]);

  // remote options: every item naming options.remote, once per (api, data)
  const remoteKey = JSON.stringify((items ?? []).map((i) => (i.options?.remote ? [i.name, i.options.remote.api, i.options.remote.data ?? null] : null)));
  useEffect(() => {
    const wanted = (items ?? []).filter((i) => i.options?.remote);
    if (!wanted.length) return;
    let live = true;
    setRemotePending(wanted.length);
    for (const item of wanted) {
      const { api, data } = item.options!.remote!;
      request<unknown>({ url: api, method: 'GET', params: data })
        .then((res) => live && setRemote((r) => ({ ...r, [item.name]: toOptions(res) })))
        .catch(() => live && setRemote((r) => ({ ...r, [item.name]: [] })))
        .finally(() => live && setRemotePending((n) => n - 1));
    }
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [remoteKey]);

  const defaults = useMemo(() => {
    const out: Record<string, unknown> = {};
    for (const i of items ?? []) if (i.value !== undefined) out[i.name] = i.value;
    return { ...out, ...initialValues };
  }, [items, initialValues]);

  const ready = Boolean(items) && remotePending <= 0;
  // The form is on screen before this effect runs, so a field may already hold what the user typed
  // (seen on a loaded machine: a name filled that fast was reset to ''). Defaults go to untouched fields.
  useEffect(() => {
    if (!ready) return;
    const untouched = Object.fromEntries(Object.entries(defaults).filter(([name]) => !form.isFieldTouched(name)));
    form.setFieldsValue(untouched);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, JSON.stringify(defaults)]);

  const watched = Form.useWatch((all: Record<string, unknown>) => all, form) as Record<string, unknown> | undefined;
  const values = useMemo(() => ({ ...defaults, ...(watched ?? {}) }), [defaults, watched]);

  const submit = async (): Promise<Record<string, unknown> | null> => {
    let result: Record<string, unknown>;
    try {
      result = await form.validateFields();
    } catch {
      feedback.warning(t('validation.formFailed'));
      return null;
    }
    if (onSubmit) {
      setSubmitting(true);
      try {
        await onSubmit(result);
      } finally {
        setSubmitting(false);
      }
    }
    return result;
  };
  useImperativeHandle(ref, () => ({ submit, form }));

  if (loadError) return <Alert type="error" title={loadError} data-testid={`${testId}-error`} />;
  if (!ready)
    return (
      <div data-testid={`${testId}-skeleton`}>
        <Skeleton active paragraph={{ rows: 4 }} />
      </div>
    );

  return (
    <Form form={form} layout={layout} data-testid={testId} initialValues={defaults}>
      <Row gutter={gutter}>
        {items!.map((item) => {
          if (isHidden(item, values)) return null;
          const fieldTestId = `${testId}-${item.name}`;
          const render = registry[item.component];
          if (!render) {
            return (
              <Col span={item.span ?? 24} key={item.name}>
                <Alert type="error" showIcon title={wt('form.componentNotFound', { type: item.component })} data-testid={`${fieldTestId}-missing`} style={{ marginBottom: 16 }} />
              </Col>
            );
          }
          const required = isRequired(item, values);
          const label = typeof item.label === 'string' ? item.label : item.name;
          const rules: Rule[] = [...(item.rules ?? [])];
          if (required) rules.unshift({ required: true, message: item.message ?? wt('form.required', { label }) });
          const options = item.options?.remote ? (remote[item.name] ?? []) : (item.options?.items ?? []);
          const placeholder =
            item.options?.placeholder ?? (CHOICE_COMPONENTS.has(item.component) || item.component === 'dict' ? wt('select.placeholder') : wt('form.inputPlaceholder', { label }));
          return (
            <Col span={item.span ?? 24} key={item.name}>
              <Form.Item
                name={item.name}
                label={item.label}
                rules={rules}
                required={required || undefined}
                extra={item.tips}
                valuePropName={render.valuePropName}
                data-testid={`${fieldTestId}-item`}
              >
                {render({ item, options, placeholder, testId: fieldTestId })}
              </Form.Item>
            </Col>
          );
        })}
      </Row>
      {onSubmit ? (
        <Space>
          <Button type="primary" onClick={submit} loading={submitting} data-testid={`${testId}-submit`}>
            {submitText ?? t('save')}
          </Button>
          <Button onClick={() => form.resetFields()}>{t('reset')}</Button>
        </Space>
      ) : null}
    </Form>
  );
}

export { compileExpression, evaluateExpression, ExpressionError } from './expression';
