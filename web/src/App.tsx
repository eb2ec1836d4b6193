import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { createRouter } from '@/router';
import { SettingsProvider, useSettings } from '@/store/settings';
import { setFeedback } from '@/utils/feedback';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/** Routes antd's context-aware message/modal/notification to plain modules (request wrapper, router). */
export function FeedbackBridge() {
  const { message, modal, notification } = AntApp.useApp();
  useEffect(() => {
    setFeedback({
      success: (text) => void message.success(text),
      error: (text) => void message.error(text),
      warning: (text) => void message.warning(text),
      notifyError: (title, description) => notification.error({ title, description }),
      confirm: (o) =>
        void modal.confirm({
          title: o.title,
          content: o.content,
          okText: o.okText,
          cancelText: o.cancelText,
          onOk: o.onOk,
          onCancel: o.onCancel,
          okButtonProps: { 'data-testid': 'relogin-ok' },
        }),
    });
    return () => setFeedback(null);
  }, [message, modal, notification]);
  return null;
}

/** antd theme + locale following the settings and the current language. */
export function ThemedProviders({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const { settings } = useSettings();
  const zh = i18n.language === 'zh-CN';
  useEffect(() => {
    dayjs.locale(zh ? 'zh-cn' : 'en');
    document.documentElement.lang = i18n.language;
  }, [zh, i18n.language]);
  const algorithm = useMemo(() => {
    const list = [settings.dark ? theme.darkAlgorithm : theme.defaultAlgorithm];
    if (settings.compact) list.push(theme.compactAlgorithm);
    return list;
  }, [settings.dark, settings.compact]);
  return (
    <ConfigProvider locale={zh ? zhCN : enUS} theme={{ algorithm, token: { colorPrimary: settings.primaryColor } }}>
      <AntApp>
        <FeedbackBridge />
        {children}
      </AntApp>
    </ConfigProvider>
  );
}

export default function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createRouter);
  return (
    <QueryClientProvider client={queryClient}>
      <SettingsProvider>
        <ThemedProviders>
          <RouterProvider router={router} />
        </ThemedProviders>
      </SettingsProvider>
    </QueryClientProvider>
  );
}
