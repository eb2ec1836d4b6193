import { Button, type FormInstance } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendSms } from '@/api/auth';
import type { SmsScene } from '@/api/auth/types';
import { SMS_COUNTDOWN_S } from '@/config';
import { feedback } from '@/utils/feedback';

export interface SmsCodeButtonProps {
  form: FormInstance;
  scene: SmsScene;
  field?: string;
  testId?: string;
}

/** Sends an SMS code for the form's mobile field, then counts down 60 s before it can resend. */
export default function SmsCodeButton({ form, scene, field = 'mobile', testId = 'sms-send' }: SmsCodeButtonProps) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);

  useEffect(() => () => {
    if (timer.current) clearInterval(timer.current);
  }, []);

  const start = (seconds: number) => {
    setLeft(seconds);
    if (timer.current) clearInterval(timer.current);
    timer.current = setInterval(() => {
      setLeft((s) => {
        if (s <= 1 && timer.current) {
          clearInterval(timer.current);
          timer.current = null;
        }
        return Math.max(0, s - 1);
      });
    }, 1000);
  };

  const onClick = async () => {
    let mobile: string;
    try {
      const values = await form.validateFields([field]);
      mobile = values[field] as string;
    } catch {
      return;
    }
    setSending(true);
    try {
      const res = await sendSms(mobile, scene);
      feedback.success(t('sms.sent'));
      start(Math.round((res?.resend_after_ms ?? SMS_COUNTDOWN_S * 1000) / 1000) || SMS_COUNTDOWN_S);
    } catch {
      /* the request wrapper showed the reason */
    } finally {
      setSending(false);
    }
  };

  return (
    <Button onClick={onClick} disabled={left > 0} loading={sending} data-testid={testId} style={{ minWidth: 120 }}>
      {left > 0 ? t('sms.resendIn', { seconds: left }) : t('sms.send')}
    </Button>
  );
}
