import { FullscreenModal } from '@/components/ModalForm';
import type { MediaKind } from '@/api/materials/types';

export interface PlayableMedia {
  id: number;
  name: string;
  kind: MediaKind;
  /** Signed URL (works without headers; Range seeking works). */
  src: string;
  poster?: string | null;
}

/** Plays a video or audio file (an image is shown) in a dialog with the fullscreen toggle. */
export default function MediaPlayerModal({ media, onClose }: { media: PlayableMedia | null; onClose: () => void }) {
  return (
    <FullscreenModal open={media !== null} title={media?.name ?? ''} onCancel={onClose} footer={null} width={720} testId="media-player" destroyOnHidden>
      {media ? (
        <div style={{ display: 'flex', justifyContent: 'center', background: media.kind === 'audio' ? undefined : '#000' }}>
          {media.kind === 'video' ? (
            <video
              key={media.src}
              src={media.src}
              poster={media.poster ?? undefined}
              controls
              autoPlay
              playsInline
              style={{ maxWidth: '100%', maxHeight: '70vh' }}
              data-testid="media-player-video"
            />
          ) : media.kind === 'audio' ? (
            <audio key={media.src} src={media.src} controls autoPlay style={{ width: '100%' }} data-testid="media-player-audio" />
          ) : (
            <img src={media.src} alt={media.name} style={{ maxWidth: '100%', maxHeight: '70vh' }} data-testid="media-player-image" />
          )}
        </div>
      ) : null}
    </FullscreenModal>
  );
}
