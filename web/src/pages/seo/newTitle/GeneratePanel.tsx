/**
 * The "generate" tab of /keywords-new_title (docs/api-seo.md `ai_title`): keywords (tags, or handed over
 * from the search pages), or a product text, a category, styles, how many, at most 50 (release task) or
 * 20 (clip) characters, the language; the generated titles with their score and keywords. Picked titles
 * can be copied, saved to the title library or sent to a new release task.
 */
import { CopyOutlined, SaveOutlined, SendOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Col, Form, Input, InputNumber, Radio, Row, Select, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useWrite } from '@/api/mutations';
import { fetchStyles, generateTitles, saveTitles, seoKeys } from '@/api/seo';
import type { GenerateResult, TitleLang } from '@/api/seo/types';
import WriterTag from '@/components/WriterTag';
import { atFormField } from '@/pages/activities/shared/errors';
import { RELEASE_FORM_PATH, stashReleaseTitles } from '@/pages/matrix/sendManagement/handoff';
import { copyText } from '@/utils/copy';
import { feedback } from '@/utils/feedback';
import { useSeoT } from '../i18n';
import { COUNT_MAX, emptyGenerateForm, MAX_CHARS_OPTIONS, titleLang, toGenerateReq, type GenerateValues, withAiLabel } from '../rules';
import GeneratedTable from '../shared/GeneratedTable';
import KeywordsSelect from '../shared/KeywordsSelect';
import { useCategories } from '../shared/useCategories';
import WordChips from '../shared/WordChips';

const LANGS: TitleLang[] = ['zh', 'en'];

export default function GeneratePanel({ keywords }: { keywords: string[] }) {
  const { t, i18n } = useSeoT();
  const navigate = useNavigate();
  const [form] = Form.useForm<GenerateValues>();
  const initial = useMemo(() => emptyGenerateForm(titleLang(i18n.language), keywords), [keywords, i18n.language]);
  const lang = (Form.useWatch('lang', form) ?? initial.lang) as TitleLang;
  const maxChars = (Form.useWatch('max_chars', form) ?? initial.max_chars) as number;
  const categories = useCategories();
  const styles = useQuery({ queryKey: ['seo', 'styles', lang], queryFn: () => fetchStyles(lang), staleTime: 300_000, retry: false });

  const [result, setResult] = useState<GenerateResult | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  // generating writes nothing: no read goes stale
  const generating = useWrite(generateTitles);
  const saving = useWrite(({ titles, categoryId }: { titles: string[]; categoryId?: number }) => saveTitles(titles, categoryId), seoKeys.all);

  const generate = async () => {
    let values: GenerateValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      const res = await atFormField(form, generating.mutateAsync(toGenerateReq(values)));
      setResult(res);
      setPicked([]);
    } catch {
      /* shown at the field or toasted */
    }
  };

  const save = async () => {
    try {
      const res = await saving.mutateAsync({ titles: picked, categoryId: form.getFieldValue('category_id') });
      feedback.success(t('gen.saved', { added: res.added, skipped: res.skipped }));
    } catch {
      /* toasted */
    }
  };

  const send = () => {
    stashReleaseTitles(picked);
    navigate(RELEASE_FORM_PATH);
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={9}>
        <Card size="small" title={t('gen.source')}>
          <Form<GenerateValues> form={form} layout="vertical" initialValues={initial} data-testid="gen-form">
            <Form.Item name="keywords" label={t('gen.keywords')} extra={t('gen.keywordsHelp')}>
              <KeywordsSelect placeholder={t('gen.keywordsPlaceholder')} data-testid="gen-keywords" />
            </Form.Item>
            <Form.Item name="text" label={t('gen.text')} extra={t('gen.textHelp')}>
              <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={2000} placeholder={t('gen.textPlaceholder')} data-testid="gen-text" />
            </Form.Item>
            <Form.Item name="category_id" label={t('title.category')}>
              <Select<number> allowClear showSearch={{ optionFilterProp: 'label' }} loading={categories.loading} options={categories.options} placeholder={t('gen.categoryPlaceholder')} data-testid="gen-category" />
            </Form.Item>
            <Form.Item name="styles" label={t('gen.styles')} extra={t('gen.stylesHelp')}>
              <Checkbox.Group options={(styles.data?.rows ?? []).map((s) => ({ value: s.code, label: <span data-testid={`gen-style-${s.code}`}>{s.name}</span> }))} />
            </Form.Item>
            <Space wrap size={16}>
              <Form.Item name="count" label={t('gen.count')} rules={[{ required: true, type: 'number', min: 1, max: COUNT_MAX, message: t('gen.countRule', { max: COUNT_MAX }) }]}>
                <InputNumber min={1} max={COUNT_MAX} precision={0} data-testid="gen-count" />
              </Form.Item>
              <Form.Item name="max_chars" label={t('gen.maxChars')}>
                <Radio.Group optionType="button" options={MAX_CHARS_OPTIONS.map((n) => ({ value: n, label: t(`gen.maxChars${n}`) }))} data-testid="gen-max-chars" />
              </Form.Item>
              <Form.Item name="lang" label={t('gen.lang')}>
                <Select<TitleLang> style={{ width: 110 }} options={LANGS.map((l) => ({ value: l, label: t(`gen.langs.${l}`) }))} data-testid="gen-lang" />
              </Form.Item>
            </Space>
            <Button type="primary" block icon={<ThunderboltOutlined />} loading={generating.isPending} onClick={() => void generate()} data-testid="gen-submit">
              {t('gen.submit')}
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} xl={15}>
        <Card
          size="small"
          title={result ? t('gen.resultTitle', { count: result.rows.length }) : t('gen.result')}
          extra={
            result ? (
              <Space size={4}>
                <Tag data-testid="gen-provider">{t(`gen.provider.${result.provider}`)}</Tag>
                <WriterTag source={result.source} testId="gen-writer" />
                {result.topics_source ? <WriterTag source={result.topics_source} testId="gen-topics-writer" /> : null}
              </Space>
            ) : null
          }
        >
          {result ? (
            <Space orientation="vertical" style={{ width: '100%' }} size={12}>
              {result.keywords.length ? (
                <div>
                  <Typography.Text type="secondary">{t('gen.extracted')}</Typography.Text>
                  <WordChips words={result.keywords} testId="gen-extracted" />
                </div>
              ) : null}
              {result.topics?.length ? (
                <div data-testid="gen-topics">
                  <Typography.Text type="secondary">{t('gen.topics')}</Typography.Text>{' '}
                  {result.topics.map((s) => (
                    <Tag key={s}>#{s}</Tag>
                  ))}
                </div>
              ) : null}
              <Space wrap>
                <Button icon={<CopyOutlined />} disabled={!picked.length} onClick={() => void copyText(withAiLabel(picked))} data-testid="gen-copy">
                  {t('gen.copy', { count: picked.length })}
                </Button>
                <Button icon={<SaveOutlined />} disabled={!picked.length} loading={saving.isPending} onClick={() => void save()} data-testid="gen-save">
                  {t('gen.save')}
                </Button>
                <Button type="primary" icon={<SendOutlined />} disabled={!picked.length} onClick={send} data-testid="gen-send">
                  {t('gen.send')}
                </Button>
              </Space>
              <GeneratedTable rows={result.rows} maxChars={maxChars} selected={picked} onSelect={setPicked} testId="gen" />
            </Space>
          ) : (
            <Alert type="info" showIcon title={t('gen.hint')} />
          )}
        </Card>
      </Col>
    </Row>
  );
}
