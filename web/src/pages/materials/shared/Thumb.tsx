import { FileImageOutlined, PlayCircleOutlined } from '@ant-design/icons';
import type { MediaFile } from '@/api/materials/types';

/** Poster of a clip (or the image itself); a placeholder while the poster is not made yet. */
export default function Thumb({ row, onClick }: { row: Pick<MediaFile, 'id' | 'kind' | 'poster' | 'name' | 'width' | 'height'>; onClick?: () => void }) {
  const portrait = row.kind === 'video' && row.height > row.width;
  const className = `cm-thumb${portrait ? ' cm-thumb-video' : ''}`;
  const body = row.poster ? (
    <img src={row.poster} alt={row.name} className={className} loading="lazy" data-testid={`thumb-${row.id}`} />
  ) : (
    <div className={className} style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', color: '#bfbfbf', fontSize: 22 }} data-testid={`thumb-${row.id}`}>
      {row.kind === 'image' ? <FileImageOutlined /> : <PlayCircleOutlined />}
    </div>
  );
  return onClick ? (
    <button type="button" onClick={onClick} style={{ border: 0, padding: 0, background: 'none', cursor: 'pointer' }} aria-label={row.name}>
      {body}
    </button>
  ) : (
    body
  );
}
