/**
 * "Generate titles" from another form (the release task's titles, a mixing project's titles): keywords and a
 * text taken from that form, the engine's titles (docs/api-seo.md `ai_title`) at most `maxChars` long,
 * and the picked ones handed back.
 */
import { ThunderboltOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, InputNumber, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useWrite } from '@/api/mutations';
import { generateTitles } from '@/api/seo';
import type { GenerateResult, GenTitle } from '@/api/seo/types';
import { FullscreenModal } from '@/components/ModalForm';
import WriterTag from '@/components/WriterTag';
import { atFormField } from '@/pages/activities/shared/errors';
import { useSeoT } from '../i18n';
import { COUNT_MAX, emptyGenerateForm, titleLang, toGenerateReq, type GenerateValues } from '../rules';
import GeneratedTable from './GeneratedTable';
import KeywordsSelect from './KeywordsSelect';

const DIALOG_COUNT = 10;

export interface GenerateTitlesDialogProps {
  open: boolean;
  onClose: () => void;
  maxChars: number;
  keywords?: string[];
  text?: string;
  onPick: (titles: string[]) => void;
}

export default function GenerateTitlesDialog({ open, onClose, maxChars, keywords = [], text = '', onPick }: GenerateTitlesDialogProps) {
  const { t, i18n } = useSeoT();
  const [form] = Form.useForm<GenerateValues>();
  const [rows, setRows] = useState<GenTitle[] | null>(null);
  const [source, setSource] = useState<GenerateResult['source'] | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const generating = useWrite(generateTitles);

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue({ ...emptyGenerateForm(titleLang(i18n.language), keywords, maxChars), text, count: DIALOG_COUNT });
    setRows(null);
    setSource(null);
    setPicked([]);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const generate = async () => {
    try {
      const v = { ...emptyGenerateForm(titleLang(i18n.language), [], maxChars), ...form.getFieldsValue(true) } as GenerateValues;
      const res = await atFormField(form, generating.mutateAsync(toGenerateReq({ ...v, max_chars: maxChars })));
      setRows(res.rows);
      setSource(res.source);
      setPicked([]);
    } catch {
      /* shown at the field or toasted */
    }
  };

  return (
    <FullscreenModal
      open={open}
      title={t('pick.title', { max: maxChars })}
      width={860}
      form={form}
      onCancel={onClose}
      okText={t('pick.insert', { count: picked.length })}
      okButtonProps={{ disabled: !picked.length, 'data-testid': 'pick-insert' } as never}
      cancelText={t('common:cancel')}
      onOk={() => {
        onPick(picked);
        onClose();
      }}
      destroyOnHidden
      testId="pick-titles"
    >
      <Form<GenerateValues> form={form} layout="vertical" data-testid="pick-form">
        <Form.Item name="keywords" label={t('gen.keywords')} extra={t('gen.keywordsHelp')}>
          <KeywordsSelect placeholder={t('gen.keywordsPlaceholder')} data-testid="pick-keywords" />
        </Form.Item>
        <Form.Item name="text" label={t('gen.text')}>
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={2000} placeholder={t('gen.textPlaceholder')} data-testid="pick-text" />
        </Form.Item>
        <Space align="end" wrap>
          <Form.Item name="count" label={t('gen.count')}>
            <InputNumber min={1} max={COUNT_MAX} precision={0} data-testid="pick-count" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" icon={<ThunderboltOutlined />} loading={generating.isPending} onClick={() => void generate()} data-testid="pick-generate">
              {t('gen.submit')}
            </Button>
          </Form.Item>
          {source ? (
            <Form.Item>
              <WriterTag source={source} testId="pick-writer" />
            </Form.Item>
          ) : null}
        </Space>
      </Form>
      {rows ? (
        <GeneratedTable rows={rows} maxChars={maxChars} selected={picked} onSelect={setPicked} testId="pick" />
      ) : (
        <Alert type="info" showIcon title={t('pick.hint')} />
      )}
    </FullscreenModal>
  );
}
