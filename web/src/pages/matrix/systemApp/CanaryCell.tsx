/**
 * The page check (canary) of a creator-console platform on /system/app: its last result (with the
 * failing step's reason), whether the platform's waiting posts are paused by it, a button that runs it
 * now (a browser walks the publish pages to the last click: tens of seconds) and, while paused, the
 * operator's resume.
 */
import { Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { matrixKeys, resumeCanary, runCanary } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { PlatformApp } from '@/api/matrix/types';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { useMatrixT } from '../i18n';

export default function CanaryCell({ app }: { app: PlatformApp }) {
  const { t, i18n } = useMatrixT();
  const run = useWrite(runCanary, matrixKeys.all);
  const resume = useWrite(resumeCanary, matrixKeys.all);
  const p = app.platform;
  const name = t(`platform.${p}`);
  const c = app.canary;
  const reason = (s: { zh: string; en: string }) => (i18n.language.startsWith('en') ? s.en : s.zh);
  const state = !c ? (
    <Tag data-testid={`canary-state-${p}`} data-state="never">
      {t('apps.check.never')}
    </Tag>
  ) : c.ok ? (
    <Tag color="green" data-testid={`canary-state-${p}`} data-state="passed">
      {t('apps.check.passed')}
    </Tag>
  ) : (
    <Tooltip title={reason(c)}>
      <Tag color="red" data-testid={`canary-state-${p}`} data-state="failed" data-reason={reason(c)}>
        {c.step === 'account' ? t('apps.check.noAccount') : t('apps.check.failed')}
      </Tag>
    </Tooltip>
  );
  return (
    <div>
      <Space size={4} wrap>
        {state}
        {c?.paused ? (
          <Tag color="orange" data-testid={`canary-paused-${p}`}>
            {t('apps.check.paused')}
          </Tag>
        ) : null}
        <Tooltip title={t('apps.check.help')}>
          <Button
            size="small"
            loading={run.isPending}
            data-testid={`canary-run-${p}`}
            onClick={async () => {
              try {
                const r = await run.mutateAsync(p);
                if (r.ok) feedback.success(t('apps.check.ran', { platform: name }));
                else feedback.warning(t('apps.check.ranFailed', { platform: name, reason: reason(r) }));
              } catch {
                /* toasted */
              }
            }}
          >
            {t('apps.check.run')}
          </Button>
        </Tooltip>
        {c?.paused ? (
          <Popconfirm
            title={t('apps.check.resumeConfirm', { platform: name })}
            okText={t('apps.check.resume')}
            cancelText={t('common:cancel')}
            okButtonProps={{ 'data-testid': `canary-resume-ok-${p}` } as never}
            onConfirm={async () => {
              try {
                await resume.mutateAsync(p);
                feedback.success(t('apps.check.resumed', { platform: name }));
              } catch {
                /* toasted */
              }
            }}
          >
            <Button size="small" type="link" data-testid={`canary-resume-${p}`}>
              {t('apps.check.resume')}
            </Button>
          </Popconfirm>
        ) : null}
      </Space>
      {c ? (
        <div>
          <Typography.Text type="secondary" data-testid={`canary-at-${p}`}>
            {t('apps.check.at', { time: formatTime(c.at) })}
          </Typography.Text>
        </div>
      ) : null}
    </div>
  );
}
