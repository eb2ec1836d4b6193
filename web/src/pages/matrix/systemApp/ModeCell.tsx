/**
 * A platform's (or WeChat's) mode on /system/app: live, sandbox or off, or the default (which says what
 * it is now); switching asks nothing more — accounts keep the mode they were authorized in and the
 * server refuses a mismatched one with the reason. Below it, why calls cannot go out in this mode.
 */
import { Select, Space, Typography } from 'antd';
import { matrixKeys, setAppMode } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { AppMode, Platform } from '@/api/matrix/types';
import { feedback } from '@/utils/feedback';
import { useMatrixT } from '../i18n';

export interface ModeCellProps {
  /** A platform's code, or `wechat`. */
  target: Platform | 'wechat';
  /** What it is called in messages. */
  name: string;
  mode: AppMode;
  modeSet: boolean;
  blocked?: string | null;
}

export default function ModeCell({ target, name, mode, modeSet, blocked }: ModeCellProps) {
  const { t } = useMatrixT();
  const save = useWrite((m: AppMode | 'default') => setAppMode(target, m), matrixKeys.all);
  const options = [
    // Unset, the mode shown is the default's; once set, the default is not known here.
    { value: 'default', label: modeSet ? t('apps.modeDefaultPlain') : t('apps.modeDefault', { mode: t(`apps.modes.${mode}`) }) },
    ...(['live', 'sandbox', 'off'] as const).map((m) => ({ value: m, label: t(`apps.modes.${m}`) })),
  ];
  return (
    <Space orientation="vertical" size={2} data-testid={`app-mode-${target}`} data-mode={mode}>
      <Select
        size="small"
        style={{ width: 150 }}
        value={modeSet ? mode : 'default'}
        options={options}
        loading={save.isPending}
        onChange={async (m: AppMode | 'default') => {
          try {
            await save.mutateAsync(m);
            feedback.success(t('apps.modeSaved', { platform: name, mode: m === 'default' ? t('apps.modeDefaultPlain') : t(`apps.modes.${m}`) }));
          } catch {
            /* toasted (the sandbox not running) */
          }
        }}
        data-testid={`app-mode-select-${target}`}
      />
      {blocked ? (
        <Typography.Text type="danger" data-testid={`app-blocked-${target}`}>
          {t('apps.blocked', { reason: blocked })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
