/**
 * The course pages /account, /Popular, /course and /shot_tutorial (SPEC §2 "Courses"): one component,
 * the category from the route. The operator's published courses of that category as cards, in the
 * reader's language; opening one plays its video or shows its rich text.
 */
import { PlayCircleOutlined, ReadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Pagination, Row, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { fetchCourses } from '@/api/content';
import type { CourseCard, CourseCategory } from '@/api/content/types';
import { useAccess } from '@/access/AccessContext';
import { LinkedText } from '@/components/MenuLink';
import PageHeader from '@/components/PageHeader';
import { formatDate } from '@/utils/format';
import { useContentT } from '../i18n';
import CourseDialog from './CourseDialog';

/** Route -> category (router/modules/content.ts declares the four routes). */
export const CATEGORY_OF_PATH: Record<string, CourseCategory> = {
  '/account': 'account',
  '/Popular': 'popular',
  '/course': 'course',
  '/shot_tutorial': 'shot',
};

const MENU_OF_CATEGORY: Record<CourseCategory, string> = {
  account: 'menu.courseAccount',
  popular: 'menu.coursePopular',
  course: 'menu.courseGeneral',
  shot: 'menu.courseShot',
};

const PAGE_SIZE = 12;

function Cover({ course }: { course: CourseCard }) {
  const icon = course.body_kind === 'video' ? <PlayCircleOutlined /> : <ReadOutlined />;
  if (course.cover) return <img alt={course.title} src={course.cover} style={{ height: 160, objectFit: 'cover' }} />;
  return <div style={{ height: 160, display: 'flex', alignItems: 'center', justifyContent: 'center', fontSize: 48, background: 'rgba(0,0,0,0.04)' }}>{icon}</div>;
}

export default function CoursesPage() {
  const { t, i18n } = useContentT();
  const { pathname } = useLocation();
  const category = CATEGORY_OF_PATH[pathname] ?? 'course';
  const [page, setPage] = useState(1);
  const [opened, setOpened] = useState<CourseCard | null>(null);
  const { isAdmin } = useAccess();
  const list = useQuery({
    queryKey: ['content', 'courses', category, page, i18n.language],
    queryFn: () => fetchCourses(category, page, PAGE_SIZE),
  });
  const rows = list.data?.rows ?? [];

  return (
    <div data-testid="courses-page" data-category={category}>
      <PageHeader title={t(`common:${MENU_OF_CATEGORY[category]}`)} subTitle={t('reader.subtitle')} />
      {list.isPending ? (
        <Skeleton active />
      ) : rows.length === 0 ? (
        // a fresh install has no course: say where they come from and what to do meanwhile
        <Empty
          data-testid="courses-empty"
          description={
            <Space orientation="vertical" size={4}>
              <Typography.Text strong>{t('reader.empty')}</Typography.Text>
              <Typography.Text type="secondary">{t('reader.emptyHow')}</Typography.Text>
              {isAdmin ? (
                <Typography.Text data-testid="courses-empty-operator">
                  <LinkedText text={t('reader.emptyOperator')} />
                </Typography.Text>
              ) : null}
              <Typography.Text data-testid="courses-empty-next">
                <LinkedText text={t(`reader.emptyNext.${category}`)} />
              </Typography.Text>
            </Space>
          }
        />
      ) : (
        <>
          <Row gutter={[16, 16]}>
            {rows.map((c) => (
              <Col key={c.id} xs={24} sm={12} md={8} xl={6}>
                <Card hoverable cover={<Cover course={c} />} onClick={() => setOpened(c)} data-testid={`course-card-${c.id}`}>
                  <Card.Meta
                    title={c.title}
                    description={
                      <>
                        <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }} style={{ marginBottom: 4 }}>
                          {c.summary}
                        </Typography.Paragraph>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {t(`kind.${c.body_kind}`)} · {formatDate(c.created_at)}
                        </Typography.Text>
                      </>
                    }
                  />
                </Card>
              </Col>
            ))}
          </Row>
          <Pagination
            style={{ marginTop: 16, textAlign: 'right' }}
            current={page}
            pageSize={PAGE_SIZE}
            total={list.data?.total ?? 0}
            hideOnSinglePage
            showSizeChanger={false}
            onChange={setPage}
          />
        </>
      )}
      <CourseDialog course={opened} onClose={() => setOpened(null)} />
    </div>
  );
}
