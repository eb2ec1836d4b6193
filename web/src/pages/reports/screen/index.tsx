/**
 * /actual_screen — the data screen: a dark, full-window board laid out for a 1920x1080 TV, read again
 * every 30 s (`/databoard.index/index`): live counters (followers included), today's publishing
 * progress, the week's trend, plays by the accounts' provinces on a map of China and the top videos of
 * the last 30 days.
 */
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Progress } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { fetchScreen } from '@/api/reports';
import type { Screen } from '@/api/reports/types';
import { formatTime } from '@/utils/format';
import Chart from '../dashboard/Chart';
import { progressOption, regionMapOption, regionOption, weekOption } from './options';
import styles from './screen.module.css';

export const SCREEN_REFRESH_MS = 30_000;

function Counter({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <div className={styles.counter} data-testid={testId}>
      <div className={styles.counterValue}>{value.toLocaleString()}</div>
      <div className={styles.counterLabel}>{label}</div>
    </div>
  );
}

function Panel({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section className={styles.panel} data-testid={testId}>
      <h3 className={styles.panelTitle}>{title}</h3>
      <div className={styles.panelBody}>{children}</div>
    </section>
  );
}

function useDial() {
  const size = () => Math.round(Math.min(170, Math.max(100, window.innerHeight * 0.155)));
  const [dial, setDial] = useState(size);
  useEffect(() => {
    const on = () => setDial(size());
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return dial;
}

export default function DataScreenPage() {
  const { t } = useTranslation('reports');
  const navigate = useNavigate();
  const [now, setNow] = useState(() => Date.now());
  const [full, setFull] = useState(false);
  const q = useQuery({ queryKey: ['data-screen'], queryFn: fetchScreen, refetchInterval: SCREEN_REFRESH_MS });
  const s: Screen | undefined = q.data;
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, []);
  const week = useMemo(() => (s ? weekOption(s, t) : null), [s, t]);
  // The provinces' map is loaded with the screen; until it is (or if it cannot be), a ranked bar chart.
  const [mapReady, setMapReady] = useState(false);
  useEffect(() => {
    let live = true;
    void import('./chinaMap')
      .then((m) => {
        m.registerChina();
        if (live) setMapReady(true);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  const regions = useMemo(() => (s ? (mapReady ? regionMapOption(s, t) : regionOption(s, t)) : null), [s, t, mapReady]);
  const progress = useMemo(() => (s ? progressOption(s, t) : null), [s, t]);
  const toggleFull = () => {
    if (!document.fullscreenElement) void document.documentElement.requestFullscreen?.().then(() => setFull(true));
    else void document.exitFullscreen?.().then(() => setFull(false));
  };
  // the dial follows the window's height (170 px on a 1080-line TV) so the panel holds it
  const dial = useDial();
  const done = s && s.today_planned ? Math.round((s.today_published * 100) / s.today_planned) : 0;

  return (
    <div className={styles.screen} data-testid="data-screen">
      <header className={styles.header}>
        <Button type="text" className={styles.headerButton} onClick={() => navigate('/dashboard')} data-testid="screen-exit">
          {t('screen.back')}
        </Button>
        <h1 className={styles.title}>{t('screen.title')}</h1>
        <div className={styles.clock}>
          <span data-testid="screen-clock">{formatTime(now)}</span>
          <Button type="text" className={styles.headerButton} icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={toggleFull} aria-label={t('screen.fullscreen')} />
        </div>
      </header>
      <div className={styles.counters}>
        <Counter label={t('figure.accounts')} value={s?.accounts ?? 0} testId="screen-accounts" />
        <Counter label={t('screen.activeAccounts')} value={s?.active_accounts ?? 0} testId="screen-active" />
        <Counter label={t('screen.todayPublished')} value={s?.today_posts ?? 0} testId="screen-today" />
        <Counter label={t('screen.weekPosts')} value={s?.week_totals.posts ?? 0} testId="screen-week-posts" />
        <Counter label={t('screen.weekPlays')} value={s?.week_totals.plays ?? 0} testId="screen-week-plays" />
        <Counter label={t('screen.weekLikes')} value={s?.week_totals.likes ?? 0} testId="screen-week-likes" />
        <Counter label={t('screen.followers')} value={s?.week_totals.followers ?? 0} testId="screen-followers" />
        <Counter label={t('screen.followerGain')} value={s?.week.follower_gain.at(-1) ?? 0} testId="screen-follower-gain" />
      </div>
      <div className={styles.grid}>
        <Panel title={t('screen.week')} testId="screen-week">
          {week && <Chart option={week} dark height="100%" className={styles.fill} testId="chart-screen-week" />}
        </Panel>
        <Panel title={t('screen.regions')} testId="screen-regions">
          {regions && s?.regions.length ? <Chart option={regions} dark height="100%" className={styles.fill} testId={mapReady ? 'chart-screen-map' : 'chart-screen-regions'} /> : <Empty description={<span className={styles.muted}>{t('screen.noRegions')}</span>} />}
        </Panel>
        <Panel title={t('screen.today')} testId="screen-progress">
          <div className={styles.progressRow}>
            <Progress type="dashboard" percent={done} size={dial} strokeColor="#36cfc9" format={(p) => <span className={styles.progressText}>{p}%</span>} />
            {progress && s?.today_planned ? <Chart option={progress} dark height="100%" testId="chart-screen-progress" /> : <Empty description={<span className={styles.muted}>{t('screen.noPlan')}</span>} />}
          </div>
          <div className={styles.muted}>{t('screen.progressLine', { published: s?.today_published ?? 0, planned: s?.today_planned ?? 0, failed: s?.today_failed ?? 0 })}</div>
          {/* "published today" also counts posts planned for other days: say how many, so the two figures agree */}
          {s?.today_posts_other_days ? (
            <div className={styles.muted} data-testid="screen-other-days">
              {t('screen.otherDays', { posts: s.today_posts, other: s.today_posts_other_days })}
            </div>
          ) : null}
        </Panel>
        <Panel title={t('screen.top')} testId="screen-top">
          <ol className={styles.top}>
            {s?.top.map((v, i) => (
              <li key={v.id} className={styles.topItem}>
                <span className={styles.rank}>{i + 1}</span>
                <span className={styles.topTitle}>{v.title}</span>
                <span className={styles.topPlays}>{v.plays.toLocaleString()}</span>
              </li>
            ))}
          </ol>
          {!s?.top.length && <div className={styles.muted}>{t('noData')}</div>}
        </Panel>
      </div>
      <footer className={styles.footer}>{s ? t('screen.updated', { at: formatTime(s.updated_at), every: SCREEN_REFRESH_MS / 1000 }) : ''}</footer>
    </div>
  );
}
