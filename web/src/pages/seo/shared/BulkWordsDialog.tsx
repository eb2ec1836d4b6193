/** Adds words typed one a line (a lexicon, a category's keywords): counted, long lines named. */
import { Form, Input, Typography } from 'antd';
import ModalForm from '@/components/ModalForm';
import { useWrite } from '@/api/mutations';
import { seoKeys } from '@/api/seo';
import type { AddedSkipped } from '@/api/seo/types';
import { feedback } from '@/utils/feedback';
import { useSeoT } from '../i18n';
import { longWords, wordLines, WORDS_PER_ADD, WORD_MAX } from '../rules';

export interface BulkWordsDialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  /** Sends the words (the area reads again after); its 422 (`words`) lands on the text box. */
  onSubmit: (words: string[]) => Promise<AddedSkipped>;
  onAdded: () => void;
  testId?: string;
}

export default function BulkWordsDialog({ open, title, onClose, onSubmit, onAdded, testId = 'bulk-words' }: BulkWordsDialogProps) {
  const { t } = useSeoT();
  const [form] = Form.useForm<{ words: string }>();
  const write = useWrite(onSubmit, seoKeys.all);
  const text = Form.useWatch('words', form);
  const words = wordLines(text);
  return (
    <ModalForm<{ words: string }>
      open={open}
      form={form}
      title={title}
      testId={testId}
      initialValues={{ words: '' }}
      onCancel={onClose}
      onSubmit={async (v) => {
        const res = await write.mutateAsync(wordLines(v.words));
        feedback.success(t('words.added', { added: res.added, skipped: res.skipped }));
        onAdded();
      }}
    >
      <Form.Item
        name="words"
        label={t('words.lines')}
        extra={<span data-testid={`${testId}-count`}>{t('words.linesHelp', { count: words.length, max: WORD_MAX })}</span>}
        rules={[
          {
            validator: async (_, v: string | undefined) => {
              const list = wordLines(v);
              if (!list.length) throw new Error(t('words.required'));
              if (list.length > WORDS_PER_ADD) throw new Error(t('words.tooMany', { max: WORDS_PER_ADD }));
              const long = longWords(list);
              if (long.length) throw new Error(t('words.tooLong', { max: WORD_MAX, words: long.slice(0, 3).join('、') }));
            },
          },
        ]}
      >
        <Input.TextArea autoSize={{ minRows: 6, maxRows: 14 }} placeholder={t('words.placeholder')} data-testid={`${testId}-text`} />
      </Form.Item>
      <Typography.Text type="secondary">{t('words.dedupe')}</Typography.Text>
    </ModalForm>
  );
}
