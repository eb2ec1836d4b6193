import { AudioOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Radio, Space, Typography } from 'antd';
import { useState } from 'react';
import { materialsKeys, startRecognition } from '@/api/materials';
import { useWrite } from '@/api/mutations';
import { feedback } from '@/utils/feedback';
import { useMaterialsT } from '../i18n';

export interface RecognizeButtonProps {
  id: number;
  /** Media length: the points a recognition costs (1 per started minute). */
  durationMs: number;
  disabled?: boolean;
  /** 'link' inside tables, 'default' in the editor. */
  type?: 'link' | 'default';
}

/** Points of a recognition: one per started minute, at least one. */
export function recognitionPoints(durationMs: number): number {
  return Math.max(1, Math.ceil(Math.max(0, durationMs) / 60_000));
}

/**
 * Starts subtitle recognition (asr_add) after choosing the language; tells the points charged. The
 * start marks the area stale: the list's and an open timeline's recognition state read again.
 */
export default function RecognizeButton({ id, durationMs, disabled, type = 'link' }: RecognizeButtonProps) {
  const { t } = useMaterialsT();
  const [lang, setLang] = useState<'zh' | 'en'>('zh');
  const write = useWrite(({ resourceId, lang }: { resourceId: number; lang: 'zh' | 'en' }) => startRecognition(resourceId, lang), materialsKeys.all, (_, { resourceId }) => materialsKeys.timeline(resourceId));

  const start = async () => {
    try {
      const started = await write.mutateAsync({ resourceId: id, lang });
      feedback.success(t('asr.started', { points: started.points }));
    } catch {
      /* toasted by the request wrapper */
    }
  };

  return (
    <Popconfirm
      title={t('asr.recognizeTitle')}
      description={
        <Space orientation="vertical" size={4}>
          <Radio.Group value={lang} onChange={(e) => setLang(e.target.value as 'zh' | 'en')} optionType="button" size="small">
            <Radio value="zh" data-testid={`asr-lang-zh-${id}`}>
              {t('asr.langZh')}
            </Radio>
            <Radio value="en" data-testid={`asr-lang-en-${id}`}>
              {t('asr.langEn')}
            </Radio>
          </Radio.Group>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('asr.cost', { points: recognitionPoints(durationMs) })}
          </Typography.Text>
        </Space>
      }
      okText={t('asr.start')}
      cancelText={t('common:cancel')}
      okButtonProps={{ 'data-testid': `asr-recognize-ok-${id}` } as never}
      onConfirm={start}
      disabled={disabled}
    >
      <Button type={type} size="small" icon={<AudioOutlined />} loading={write.isPending} disabled={disabled} data-testid={`asr-recognize-${id}`}>
        {t('asr.recognize')}
      </Button>
    </Popconfirm>
  );
}
