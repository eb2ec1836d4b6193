/**
 * Step 2 of an image-note task (图文): pictures of the image library, in the order they are ticked
 * (the note shows them in that order), and optionally frames of a finished video grabbed when the
 * note goes out. 1–18 pictures in all (`NOTE_IMAGES_MAX`).
 */
import { useQuery } from '@tanstack/react-query';
import { Badge, Empty, Form, InputNumber, Select, Space, Spin, Typography } from 'antd';
import { fetchNoteImages, fetchVideos } from '@/api/matrix';
import { useMatrixT } from '../i18n';
import { NOTE_IMAGES_MAX } from '../rules';

export interface NoteImagePickerProps {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** Shown (an image note is being made): only then is the library read — fresh each time, so
   * pictures uploaded since the form opened are there. */
  active?: boolean;
}

/** The library's pictures as tiles; a ticked one shows its place in the note. */
export function NoteImagePicker({ value = [], onChange, active = true }: NoteImagePickerProps) {
  const { t } = useMatrixT();
  const images = useQuery({ queryKey: ['matrix', 'noteImages'], queryFn: fetchNoteImages, enabled: active, staleTime: 0 });
  const rows = images.data?.rows ?? [];
  const toggle = (id: number) => onChange?.(value.includes(id) ? value.filter((x) => x !== id) : [...value, id]);
  if (images.isLoading) return <Spin />;
  if (!rows.length) return <Empty description={t('note.noImages')} data-testid="note-images-empty" />;
  return (
    <div className="cm-note-images" data-testid="note-images" style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
      {rows.map((m) => {
        const place = value.indexOf(m.id) + 1;
        return (
          <Badge key={m.id} count={place || 0} color="#1677ff">
            <button
              type="button"
              onClick={() => toggle(m.id)}
              aria-pressed={place > 0}
              title={m.name}
              data-testid={`note-image-${m.id}`}
              style={{ width: 96, height: 96, padding: 0, border: place ? '2px solid #1677ff' : '1px solid #d9d9d9', borderRadius: 6, background: '#fafafa', cursor: 'pointer', overflow: 'hidden' }}
            >
              <img src={m.poster ?? m.src} alt={m.name} style={{ width: '100%', height: '100%', objectFit: 'cover' }} />
            </button>
          </Badge>
        );
      })}
    </div>
  );
}

/** "Frames of a video": a finished video and how many frames of it join the note. */
export function NoteFrames() {
  const { t } = useMatrixT();
  const videos = useQuery({ queryKey: ['matrix', 'videos', 'library', ''], queryFn: () => fetchVideos({ source: 'library' }) });
  return (
    <Space wrap align="start" data-testid="note-frames">
      <Form.Item name="frames_video" label={t('note.framesVideo')} style={{ minWidth: 280 }}>
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          loading={videos.isLoading}
          placeholder={t('note.framesVideoPlaceholder')}
          options={(videos.data?.rows ?? []).map((v) => ({ value: v.id, label: v.name }))}
          data-testid="note-frames-video"
        />
      </Form.Item>
      <Form.Item name="frames_count" label={t('note.framesCount')}>
        <InputNumber<number> min={1} max={NOTE_IMAGES_MAX} precision={0} style={{ width: 120 }} data-testid="note-frames-count" />
      </Form.Item>
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: 30 }}>
        {t('note.framesHelp')}
      </Typography.Text>
    </Space>
  );
}
