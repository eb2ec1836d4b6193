/**
 * The "AI" tag of a video the product generated parts of (`ai_parts`: AI voice-over, AI script,
 * one-touch assembly), with the parts and the label's rule in its tooltip: such a video carries the
 * visible AI label and the AIGC metadata, and its declaration `auto` says AI-generated. Nothing for
 * the merchant's own footage.
 */
import { Tag, Tooltip } from 'antd';
import type { AiPart } from '@/api/clip/types';
import { useWidgetsT } from '../i18n';

type Props = {
  parts: AiPart[] | null | undefined;
  testId?: string;
  className?: string;
};

export default function AiPartsTag({ parts, testId, className }: Props) {
  const { t } = useWidgetsT();
  if (!parts?.length) return null;
  return (
    <Tooltip title={t('aiParts.tooltip', { parts: parts.map((p) => t(`aiParts.part.${p}`)).join(' / ') })}>
      <Tag color="purple" className={className} data-testid={testId}>
        {t('aiParts.tag')}
      </Tag>
    </Tooltip>
  );
}
