/**
 * A finished video's duplicate risk (0–100; docs/architecture.md "Duplicate risk"): the score coloured
 * by its band, and why in the tooltip — the most alike sibling and published video, part by part
 * ("与同项目 #12：共用 3/4 个镜头，画面 75% 相同，声音 100% 相同"). A dash while not measured.
 */
import { Tag, Tooltip, Typography } from 'antd';
import type { RiskLevel, RiskReason } from '@/api/clip/types';
import { limits } from '@/api/limits';
import { useWidgetsT } from '../i18n';

type Props = {
  risk: number | null | undefined;
  /** The band (from the score when left out). */
  level?: RiskLevel | null;
  reasons: RiskReason[] | null | undefined;
  testId?: string;
};

const COLOUR: Record<RiskLevel, string> = { low: 'green', medium: 'gold', high: 'red' };

/** A score's band, where the server sent a score alone (a plan's reason): the server's own thresholds. */
export function riskLevel(score: number): RiskLevel {
  return score >= limits.clip.RISK_HIGH ? 'high' : score >= limits.clip.RISK_MEDIUM ? 'medium' : 'low';
}

/** One reason in words: what it was compared with, then the parts alike. */
export function useReasonText() {
  const { t } = useWidgetsT();
  return (r: RiskReason) => {
    const against = r.against === 'published' && !r.other_id ? t('risk.against.upload') : t(`risk.against.${r.against}`, { id: r.other_id });
    const parts: string[] = [];
    if (r.same_file) parts.push(t('risk.sameFile'));
    if (r.shared_clips) parts.push(t('risk.shared', { shared: r.shared_clips[0], total: r.shared_clips[1] }));
    parts.push(t('risk.visual', { pct: r.visual }));
    if (r.audio != null) parts.push(t('risk.audio', { pct: r.audio }));
    if (r.text != null) parts.push(t('risk.text', { pct: r.text }));
    return t('risk.reason', { against, parts: parts.join(t('risk.comma')), score: r.score });
  };
}

export default function RiskTag({ risk, level, reasons, testId }: Props) {
  const { t } = useWidgetsT();
  const words = useReasonText();
  if (risk == null) {
    return (
      <Tooltip title={t('risk.notMeasured')}>
        <Typography.Text type="secondary" data-testid={testId}>
          —
        </Typography.Text>
      </Tooltip>
    );
  }
  const band = level ?? riskLevel(risk);
  const lines = reasons?.length ? reasons.map(words) : [t('risk.nothingAlike')];
  return (
    <Tooltip
      title={
        <div data-testid={testId ? `${testId}-reasons` : undefined}>
          {lines.map((l) => (
            <div key={l}>{l}</div>
          ))}
          <div style={{ opacity: 0.75, marginTop: 4 }}>{t('risk.help')}</div>
        </div>
      }
    >
      <Tag color={COLOUR[band]} data-testid={testId} data-level={band}>
        {t('risk.tag', { level: t(`risk.level.${band}`), score: risk })}
      </Tag>
    </Tooltip>
  );
}
