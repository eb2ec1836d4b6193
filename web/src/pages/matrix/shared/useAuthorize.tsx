/**
 * Authorizing an account (docs/api-matrix.md "get_qrCode"): DY / KS open the platform's consent page in
 * this window (it comes back to /account_auth?authorized=<id> or ?auth_error=<message>); SPH / XHS /
 * the shop platform show a QR code and poll the login every 2 s (with an SMS step, or a slider puzzle
 * the person solves on its picture, when the platform asks for one); BJH takes an app id and token.
 */
import { Alert, Button, Form, Input, Slider, Space, Spin, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { bjhLogin, matrixKeys, pollQrLogin, startAuthorize } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { Account, Platform, QrLoginState } from '@/api/matrix/types';
import { RequestError } from '@/api/request';
import ModalForm, { FullscreenModal } from '@/components/ModalForm';
import QrCodeImage from '@/components/QrCodeImage';
import { feedback } from '@/utils/feedback';
import { useMatrixT } from '../i18n';
import { browser } from './browser';

/** How often a QR login is polled. */
export const QR_POLL_MS = 2000;

export interface QrLogin {
  platform: Platform;
  login_id: string;
  qr_url: string;
  /** The platform's own QR captured from its login page (browser flows): shown as is. */
  qr_image?: string;
}

interface QrLoginModalProps {
  login: QrLogin | null;
  groupId?: number | null;
  onClose: () => void;
  onDone: (account: Account | undefined) => void;
}

export function QrLoginModal({ login, groupId, onClose, onDone }: QrLoginModalProps) {
  const { t } = useMatrixT();
  const [current, setCurrent] = useState<QrLogin | null>(login);
  const [state, setState] = useState<QrLoginState>('qr_pending');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  // a slider puzzle: its picture, where the person put the piece (0-100), and a refused place
  const [challenge, setChallenge] = useState<string | null>(null);
  const [place, setPlace] = useState(0);
  const [slideError, setSlideError] = useState(false);
  const sending = useWrite(({ platform, loginId, sms, slide }: { platform: Platform; loginId: string; sms?: string; slide?: number }) =>
    pollQrLogin(platform, loginId, sms, slide),
  );
  const restarting = useWrite(({ platform, proxy }: { platform: Platform; proxy?: string }) => startAuthorize(platform, groupId, proxy));
  // the proxy the login goes through (the account then posts through it too)
  const [proxyOpen, setProxyOpen] = useState(false);
  const [proxy, setProxy] = useState('');
  const [proxyUsed, setProxyUsed] = useState('');
  const [proxyError, setProxyError] = useState<string | null>(null);
  const done = useRef(onDone);
  done.current = onDone;

  useEffect(() => {
    setCurrent(login);
    setState('qr_pending');
    setCode('');
    setCodeError(null);
    setChallenge(null);
    setSlideError(false);
    setProxyOpen(false);
    setProxy('');
    setProxyUsed('');
    setProxyError(null);
  }, [login]);

  const apply = useCallback((res: { state: QrLoginState; login_id?: string; qr_url?: string; qr_image?: string | null; challenge_image?: string | null; account?: Account | null }) => {
    // a browser flow answers the QR the platform's page shows now (it replaces an expired one)
    setCurrent((c) => (c ? { ...c, login_id: res.login_id || c.login_id, qr_url: res.qr_url || c.qr_url, qr_image: res.qr_image || c.qr_image } : c));
    if (res.challenge_image) setChallenge(res.challenge_image);
    setState(res.state);
    if (res.state === 'logged_in') done.current(res.account ?? undefined);
  }, []);

  // poll while the code waits to be scanned
  useEffect(() => {
    if (!current || state !== 'qr_pending') return;
    let stopped = false;
    const timer = setTimeout(async () => {
      try {
        const res = await pollQrLogin(current.platform, current.login_id);
        if (!stopped) apply(res);
      } catch {
        // a failed poll is tried again on the next tick
        if (!stopped) setCurrent((c) => (c ? { ...c } : c));
      }
    }, QR_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [current, state, apply]);

  const sendCode = async () => {
    if (!current) return;
    if (!/^\d{6}$/.test(code.trim())) {
      setCodeError(t('qr.smsRule'));
      return;
    }
    setCodeError(null);
    try {
      const res = await sending.mutateAsync({ platform: current.platform, loginId: current.login_id, sms: code.trim() });
      if (res.state === 'sms_challenge') setCodeError(t('qr.smsAgain'));
      apply(res);
    } catch (e) {
      setCodeError(e instanceof Error ? e.message : String(e));
    }
  };

  const sendPlace = async () => {
    if (!current) return;
    setSlideError(false);
    try {
      const res = await sending.mutateAsync({ platform: current.platform, loginId: current.login_id, slide: place / 100 });
      // still a puzzle: the platform refused the place and shows a new one
      if (res.state === 'slider_challenge') {
        setSlideError(true);
        setPlace(0);
      }
      apply(res);
    } catch {
      /* toasted */
    }
  };

  /** A new QR (the old one expired, or through `via`, a proxy); a refused proxy is said at its field. */
  const restart = async (via?: string) => {
    if (!current) return;
    setProxyError(null);
    try {
      const res = await restarting.mutateAsync({ platform: current.platform, proxy: via });
      if (res.kind === 'qr') {
        setCurrent({ platform: current.platform, login_id: res.login_id, qr_url: res.qr_url, qr_image: res.qr_image ?? undefined });
        setState('qr_pending');
        setCode('');
        setCodeError(null);
        if (via) {
          setProxyUsed(via.replace(/\/\/[^@/]*@/, '//'));
          setProxyOpen(false);
        }
      }
    } catch (e) {
      if (via) setProxyError(e instanceof Error ? e.message : String(e));
      /* else toasted */
    }
  };

  const platformName = current ? t(`platform.${current.platform}`) : '';
  return (
    <FullscreenModal
      open={login !== null}
      title={t('qr.title', { platform: platformName })}
      onCancel={onClose}
      footer={null}
      width={420}
      testId="qr-login"
      destroyOnHidden
    >
      {current ? (
        <Space orientation="vertical" align="center" style={{ width: '100%' }} data-testid="qr-login-body" data-state={state}>
          {state === 'qr_pending' || state === 'expired' ? (
            <>
              <div style={{ opacity: state === 'expired' ? 0.25 : 1 }}>
                {current.qr_image ? (
                  <img src={current.qr_image} width={200} height={200} alt={t('qr.consoleQr', { platform: platformName })} data-testid="qr-image" data-source="console" />
                ) : (
                  <QrCodeImage value={current.qr_url} size={200} testId="qr-image" />
                )}
              </div>
              {current.qr_image ? (
                <Typography.Text type="secondary" data-testid="qr-console-hint">
                  {t('qr.consoleHint', { platform: platformName })}
                </Typography.Text>
              ) : (
                <a href={current.qr_url} target="_blank" rel="noopener noreferrer" data-testid="qr-link">
                  {t('qr.openPage')}
                </a>
              )}
            </>
          ) : null}
          {state === 'qr_pending' ? (
            <Typography.Text type="secondary" data-testid="qr-waiting">
              <Spin size="small" /> {t('qr.scan', { platform: platformName })}
            </Typography.Text>
          ) : null}
          {state === 'qr_pending' && current.qr_image ? (
            proxyOpen ? (
              <Form layout="vertical" style={{ width: 320 }} onFinish={() => void restart(proxy.trim())} data-testid="qr-proxy-form">
                <Form.Item label={t('qr.proxyOpen')} extra={t('qr.proxyHelp')} validateStatus={proxyError ? 'error' : undefined} help={proxyError ?? undefined}>
                  <Input value={proxy} onChange={(e) => setProxy(e.target.value)} placeholder={t('qr.proxyPlaceholder')} autoComplete="off" data-testid="qr-proxy" />
                </Form.Item>
                <Button htmlType="submit" block loading={restarting.isPending} disabled={!proxy.trim()} data-testid="qr-proxy-apply">
                  {t('qr.proxyApply')}
                </Button>
              </Form>
            ) : proxyUsed ? (
              <Typography.Text type="secondary" data-testid="qr-proxy-used">
                {t('qr.proxyUsed', { proxy: proxyUsed })}
              </Typography.Text>
            ) : (
              <Button type="link" size="small" onClick={() => setProxyOpen(true)} data-testid="qr-proxy-open">
                {t('qr.proxyOpen')}
              </Button>
            )
          ) : null}
          {state === 'expired' ? (
            <Space orientation="vertical" align="center">
              <Alert type="warning" showIcon title={t('qr.expired')} data-testid="qr-expired" />
              <Button type="primary" loading={restarting.isPending} onClick={() => void restart(proxyUsed ? proxy.trim() : undefined)} data-testid="qr-restart">
                {t('qr.restart')}
              </Button>
            </Space>
          ) : null}
          {state === 'sms_challenge' ? (
            <Form layout="vertical" style={{ width: 280 }} onFinish={() => void sendCode()}>
              <Alert type="info" showIcon title={t('qr.smsHelp')} style={{ marginBottom: 12 }} />
              <Form.Item label={t('qr.smsCode')} validateStatus={codeError ? 'error' : undefined} help={codeError ?? undefined}>
                <Input
                  value={code}
                  onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
                  maxLength={6}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  placeholder="000000"
                  data-testid="sms-code"
                />
              </Form.Item>
              <Button type="primary" htmlType="submit" block loading={sending.isPending} disabled={code.length !== 6} data-testid="sms-submit">
                {t('qr.smsSend')}
              </Button>
            </Form>
          ) : null}
          {state === 'slider_challenge' ? (
            <Space orientation="vertical" style={{ width: 320 }} data-testid="slider-challenge">
              <Alert type="info" showIcon title={t('qr.sliderHelp', { platform: platformName })} />
              {challenge ? <img src={challenge} alt={t('qr.sliderImage')} style={{ width: '100%' }} data-testid="slider-image" /> : <Spin />}
              <Slider min={0} max={100} value={place} onChange={(v) => setPlace(v)} tooltip={{ formatter: (v) => `${v}%` }} aria-label={t('qr.sliderPlace')} data-testid="slider-place" />
              {slideError ? <Typography.Text type="danger" data-testid="slider-error">{t('qr.sliderAgain')}</Typography.Text> : null}
              <Button type="primary" block loading={sending.isPending} onClick={() => void sendPlace()} data-testid="slider-submit">
                {t('qr.sliderSend')}
              </Button>
            </Space>
          ) : null}
          {state === 'logged_in' ? <Alert type="success" showIcon title={t('auth.success')} /> : null}
        </Space>
      ) : null}
    </FullscreenModal>
  );
}

interface BjhValues {
  app_id: string;
  app_token: string;
}

export function BjhModal({ open, groupId, onClose, onDone }: { open: boolean; groupId?: number | null; onClose: () => void; onDone: (a: Account) => void }) {
  const { t } = useMatrixT();
  const [form] = Form.useForm<BjhValues>();
  const login = useWrite(({ appId, appToken }: { appId: string; appToken: string }) => bjhLogin(appId, appToken, groupId));
  const submit = async (v: BjhValues) => {
    try {
      onDone(await login.mutateAsync({ appId: v.app_id.trim(), appToken: v.app_token.trim() }));
    } catch (e) {
      if (e instanceof RequestError && !e.field) {
        // the platform refused the pair: say so at the token
        form.setFields([{ name: 'app_token', errors: [e.message] }]);
        return;
      }
      throw e;
    }
  };
  return (
    <ModalForm<BjhValues> open={open} title={t('bjh.title')} form={form} onCancel={onClose} onSubmit={submit} testId="bjh-form" okText={t('bjh.ok')}>
      <Typography.Paragraph type="secondary">{t('bjh.help')}</Typography.Paragraph>
      <Form.Item name="app_id" label={t('bjh.appId')} rules={[{ required: true, whitespace: true, message: t('bjh.appIdRequired') }]}>
        <Input autoComplete="off" data-testid="bjh-app-id" />
      </Form.Item>
      <Form.Item name="app_token" label={t('bjh.appToken')} rules={[{ required: true, whitespace: true, message: t('bjh.appTokenRequired') }]}>
        <Input.Password autoComplete="new-password" data-testid="bjh-app-token" />
      </Form.Item>
    </ModalForm>
  );
}

/**
 * `authorize(platform)` starts the platform's flow; render `elements` once on the page. An account
 * authorized marks the area stale: the accounts and the platform cards read again.
 */
export function useAuthorize({ groupId, onAuthorized }: { groupId?: number | null; onAuthorized?: (account: Account | undefined) => void }): {
  authorize: (platform: Platform) => Promise<void>;
  busy: Platform | null;
  elements: ReactNode;
} {
  const { t } = useMatrixT();
  const [qr, setQr] = useState<QrLogin | null>(null);
  const [bjh, setBjh] = useState(false);
  const client = useQueryClient();
  const start = useWrite((platform: Platform) => startAuthorize(platform, groupId));
  const busy = start.isPending ? (start.variables ?? null) : null;

  const authorize = async (platform: Platform) => {
    if (platform === 'bjh') {
      setBjh(true);
      return;
    }
    try {
      const res = await start.mutateAsync(platform);
      if (res.kind === 'oauth') browser.assign(res.url);
      else setQr({ platform, login_id: res.login_id, qr_url: res.qr_url, qr_image: res.qr_image ?? undefined });
    } catch {
      /* toasted */
    }
  };

  const finished = (account: Account | undefined) => {
    feedback.success(account ? t('auth.successNamed', { name: account.nickname }) : t('auth.success'));
    void client.invalidateQueries({ queryKey: matrixKeys.all });
    onAuthorized?.(account);
  };

  const elements = (
    <>
      <QrLoginModal
        login={qr}
        groupId={groupId}
        onClose={() => setQr(null)}
        onDone={(account) => {
          setQr(null);
          finished(account);
        }}
      />
      <BjhModal
        open={bjh}
        groupId={groupId}
        onClose={() => setBjh(false)}
        onDone={(account) => {
          setBjh(false);
          finished(account);
        }}
      />
    </>
  );
  return { authorize, busy, elements };
}
