/** An opened course: its video played in the page, or its rich text (read fresh, in the reader's language). */
import { useQuery } from '@tanstack/react-query';
import { Empty, Skeleton, Typography } from 'antd';
import { fetchCourse } from '@/api/content';
import type { CourseCard } from '@/api/content/types';
import { FullscreenModal } from '@/components/ModalForm';
import { useContentT } from '../i18n';
import RichText from '../richText';

export default function CourseDialog({ course, onClose }: { course: CourseCard | null; onClose: () => void }) {
  const { t, i18n } = useContentT();
  const detail = useQuery({
    queryKey: ['content', 'course', course?.id, i18n.language],
    queryFn: () => fetchCourse(course!.id),
    enabled: !!course,
  });
  const d = detail.data;
  return (
    <FullscreenModal open={!!course} title={d?.title ?? course?.title} width={860} footer={null} onCancel={onClose} destroyOnHidden testId="course-dialog">
      {detail.isPending || !d ? (
        <Skeleton active />
      ) : (
        <>
          {d.summary && <Typography.Paragraph type="secondary">{d.summary}</Typography.Paragraph>}
          {d.body_kind === 'video' ? (
            d.video_url ? (
              <video src={d.video_url} poster={d.cover || undefined} controls autoPlay style={{ width: '100%', maxHeight: '70vh', background: '#000' }} data-testid="course-video">
                {t('reader.videoHint')}
              </video>
            ) : (
              <Empty description={t('reader.noVideo')} />
            )
          ) : (
            <RichText text={d.body} testId="course-body" />
          )}
        </>
      )}
    </FullscreenModal>
  );
}
