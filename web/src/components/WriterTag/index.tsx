/**
 * Who wrote an AI result (`source` of every AI endpoint, `services::writer`): a small tag "LLM: <model>"
 * when the operator's AI service wrote it, "Built-in" / "内置" when the built-in writer did; when the
 * configured service failed and the built-in writer stood in, the tag is orange and says why.
 */
import { WarningOutlined } from '@ant-design/icons';
import { Tag, Tooltip } from 'antd';
import type { components } from '@/api/schema';
import { useWidgetsT } from '../i18n';

export type WriterSource = components['schemas']['WriterSource'];

export default function WriterTag({ source, testId = 'writer-tag' }: { source?: WriterSource | null; testId?: string }) {
  const { t } = useWidgetsT();
  if (!source) return null;
  if (source.kind === 'llm') {
    return (
      <Tooltip title={t('writer.llmTip', { model: source.model })}>
        <Tag color="blue" data-testid={testId} data-kind="llm">
          {t('writer.llm', { model: source.model })}
        </Tag>
      </Tooltip>
    );
  }
  const reason = source.fallback_reason;
  return (
    <Tooltip title={reason ? t('writer.fellBack', { reason }) : t('writer.builtInTip')}>
      <Tag color={reason ? 'orange' : undefined} icon={reason ? <WarningOutlined /> : undefined} data-testid={testId} data-kind="built_in" data-reason={reason || undefined}>
        {t('writer.builtIn')}
      </Tag>
    </Tooltip>
  );
}
