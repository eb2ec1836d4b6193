/**
 * Under the declaration field of a release task (issue 39): per platform, what the chosen videos will
 * declare — `auto` follows each video's provenance (AI-generated when the product generated any part,
 * original for the merchant's own footage) — in the platform console's own words.
 */
import { Space, Tag, Typography } from 'antd';
import { PLATFORMS } from '@/api/matrix';
import type { ContentDeclaration } from '@/api/matrix/types';
import { useMatrixT } from '../i18n';
import { consoleDeclaration, resolveDeclaration } from '../rules';

export interface DeclarationPreviewProps {
  chosen: ContentDeclaration;
  /** The task's platform (`mixed`: every platform). */
  platform: string;
  videoKeys: string[];
  /** Whether the product generated any part of a video, by key (videos not listed yet count as own). */
  generated: Record<string, boolean>;
}

export default function DeclarationPreview({ chosen, platform, videoKeys, generated }: DeclarationPreviewProps) {
  const { t } = useMatrixT();
  if (!videoKeys.length) return null;
  const counts = new Map<Exclude<ContentDeclaration, 'auto'>, number>();
  for (const k of videoKeys) {
    const d = resolveDeclaration(chosen, Boolean(generated[k]));
    counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  const platforms = platform === 'mixed' ? PLATFORMS : [platform];
  return (
    <div data-testid="declaration-preview">
      {platforms.map((p) => (
        <div key={p} data-testid={`declaration-on-${p}`}>
          <Typography.Text type="secondary">{t(`platform.${p}`)}：</Typography.Text>
          <Space size={4} wrap>
            {[...counts].map(([d, n]) => {
              const label = consoleDeclaration(p, d);
              const shown = label === undefined ? t('form.declarationNotSent') : label === null ? t('declaration.none') : label;
              return (
                <Tag key={d} color={d === 'ai_generated' ? 'purple' : undefined} data-testid={`declaration-on-${p}-${d}`}>
                  {t(`declaration.${d}`)} · {shown} × {n}
                </Tag>
              );
            })}
          </Space>
        </div>
      ))}
    </div>
  );
}
