/**
 * /home — the 'header' home (SPEC §2: the home layout is 'header' when the stored home type is 1, and
 * `/` then opens this page instead of /dashboard): the operator's banners, shortcuts to the flows the
 * user may open, today's hot searches (from the hot-list cache, when the user has that menu) and the
 * newest courses.
 */
import { useQuery } from '@tanstack/react-query';
import { Card, Carousel, Col, Empty, List, Row, Space, Typography } from 'antd';
import { Link } from 'react-router';
import { fetchBanners } from '@/api/auth';
import { contentKeys, fetchCourses } from '@/api/content';
import { useAccess } from '@/access/AccessContext';
import PageHeader from '@/components/PageHeader';
import { routeByPath } from '@/router/routes';
import { renderIcon } from '@/router/icons';
import HotSearchCard from '../hotlists/HotSearchCard';
import { useContentT } from '../i18n';

/** The shortcuts, in order; each shows when the user may open its route. */
export const SHORTCUTS = ['/video', '/normal_mode', '/piece_rep', '/send_management', '/account_auth', '/hotvideo', '/dashboard'] as const;

/** The course page of a course category. */
const COURSE_PAGE: Record<string, string> = { account: '/account', popular: '/Popular', course: '/course', shot: '/shot_tutorial' };

export default function HomePage() {
  const { t } = useContentT();
  const access = useAccess();
  const banners = useQuery({ queryKey: [...contentKeys.home, 'banners'], queryFn: fetchBanners });
  const courses = useQuery({ queryKey: [...contentKeys.home, 'courses'], queryFn: () => fetchCourses(undefined, 1, 6) });
  const shortcuts = SHORTCUTS.map((p) => routeByPath.get(p)).filter((r) => r && (!r.meta.permission || access.can(r.meta.permission)) && access.canOpen(r.meta));
  const name = access.user?.nickname || access.user?.username || '';

  return (
    <div data-testid="home-page">
      <PageHeader title={t('home.hello', { name })} subTitle={t('home.subtitle')} />
      {banners.data?.rows?.length ? (
        <Carousel autoplay style={{ marginBottom: 16 }} data-testid="home-banners">
          {banners.data.rows.map((b) => (
            <a key={b.id} href={b.link || undefined} target={b.link?.startsWith('http') ? '_blank' : undefined} rel="noreferrer">
              <div style={{ height: 160, background: `center / cover no-repeat url("${b.image}")`, borderRadius: 8 }}>
                <Typography.Title level={4} style={{ color: '#fff', padding: 16, textShadow: '0 1px 3px #000' }}>
                  {b.title}
                </Typography.Title>
              </div>
            </a>
          ))}
        </Carousel>
      ) : null}
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <Card title={t('home.shortcuts')} size="small" data-testid="home-shortcuts">
            <Row gutter={[12, 12]}>
              {shortcuts.map((r) => (
                <Col key={r!.path} xs={12} md={8}>
                  <Link to={r!.path} data-testid={`home-shortcut-${r!.path.slice(1)}`}>
                    <Card hoverable size="small">
                      <Space>
                        {renderIcon(r!.meta.icon)}
                        {t(`common:${r!.meta.title}`)}
                      </Space>
                    </Card>
                  </Link>
                </Col>
              ))}
            </Row>
          </Card>
          <Card title={t('home.courses')} size="small" style={{ marginTop: 16 }} data-testid="home-courses">
            {courses.data?.rows?.length ? (
              <List
                dataSource={courses.data.rows}
                renderItem={(c) => (
                  <List.Item>
                    <Link to={COURSE_PAGE[c.category] ?? '/course'}>{c.title}</Link>
                  </List.Item>
                )}
              />
            ) : (
              <Empty description={t('home.noCourses')} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <HotSearchCard />
        </Col>
      </Row>
    </div>
  );
}
