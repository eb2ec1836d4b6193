/**
 * The copy precheck as the merchant types, like a spell checker: `useCopyCheck(text, platforms)`
 * asks the server (`checkCopy`, debounced) and `CopyCheckHints` lists what it found under a field:
 * the words, whether they block publishing or only need checking, the rule, its source (law article
 * or platform rule page) and, where a rewrite is safe, an "apply" button. The server checks again
 * before a task is queued, so this only helps; it never decides.
 */
import { Button, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { checkCopy, type CopyFinding, type CopyPlatform } from '@/api/compliance';
import { useWidgetsT } from '../i18n';

/** Waits this long after the last keystroke before asking. */
export const COPY_CHECK_DELAY_MS = 400;

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}

/** The findings of `text` (debounced); none while it is blank. */
export function useCopyCheck(text: string | undefined, platforms: CopyPlatform[] = [], delay = COPY_CHECK_DELAY_MS) {
  const checked = useDebounced((text ?? '').trim() ? (text ?? '') : '', delay);
  const key = [...platforms].sort().join(',');
  const q = useQuery({
    queryKey: ['copyCheck', checked, key],
    queryFn: () => checkCopy(checked, platforms),
    enabled: checked.length > 0,
    staleTime: 60_000,
    retry: false,
  });
  return { text: checked, findings: checked ? (q.data?.findings ?? []) : [], blocked: Boolean(checked && q.data?.blocked) };
}

/** `text` with the finding's words replaced by its suggestion; the words are looked up again when the
 * text changed since the check (offsets are UTF-16, as JavaScript indexes strings). */
export function applySuggestion(text: string, f: CopyFinding): string {
  if (f.suggestion == null) return text;
  let start = f.start;
  if (text.slice(f.start, f.end) !== f.term) {
    start = text.indexOf(f.term);
    if (start < 0) return text;
  }
  return text.slice(0, start) + f.suggestion + text.slice(start + f.term.length);
}

type HintsProps = {
  /** The field's text as it is now. */
  text: string | undefined;
  /** The platforms the text goes to (empty: any). */
  platforms?: CopyPlatform[];
  /** Called with the text after a suggestion was applied; without it, no apply buttons. */
  onApply?: (next: string) => void;
  testId?: string;
};

export default function CopyCheckHints({ text, platforms = [], onApply, testId = 'copy-check' }: HintsProps) {
  const { t } = useWidgetsT();
  const { findings } = useCopyCheck(text, platforms);
  if (!findings.length) return null;
  return (
    <div data-testid={testId} role="status">
      {findings.map((f, i) => (
        <div key={`${f.rule_id}-${f.start}-${i}`} data-testid={`${testId}-finding`} data-rule={f.rule_id} data-severity={f.severity} style={{ marginTop: 4 }}>
          <Space size={4} wrap>
            <Tag color={f.severity === 'block' ? 'error' : 'warning'}>{t(f.severity === 'block' ? 'copyCheck.block' : 'copyCheck.warn')}</Tag>
            <Typography.Text strong>「{f.term}」</Typography.Text>
            <Typography.Text type={f.severity === 'block' ? 'danger' : 'warning'}>{f.explanation}</Typography.Text>
            <Typography.Text type="secondary">{t('copyCheck.source', { source: f.source })}</Typography.Text>
            {onApply && f.suggestion != null && text ? (
              <Button size="small" type="link" data-testid={`${testId}-apply`} onClick={() => onApply(applySuggestion(text, f))}>
                {t('copyCheck.apply', { suggestion: f.suggestion })}
              </Button>
            ) : null}
          </Space>
        </div>
      ))}
    </div>
  );
}
