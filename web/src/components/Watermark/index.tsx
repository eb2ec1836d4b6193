import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { WATERMARK_TILE } from '@/config';

export interface WatermarkProps {
  text: string;
  enabled?: boolean;
  /** Tile size in CSS pixels (SPEC §9: 150x150). */
  tile?: number;
  color?: string;
  children?: ReactNode;
  style?: CSSProperties;
}

/** Draws one rotated tile with the text; returns a data URL (null where canvas is unavailable). */
export function watermarkTile(text: string, tile: number, color: string): string | null {
  try {
    const ratio = window.devicePixelRatio || 1;
    const canvas = document.createElement('canvas');
    canvas.width = tile * ratio;
    canvas.height = tile * ratio;
    const ctx = canvas.getContext('2d');
    if (!ctx) return null;
    ctx.scale(ratio, ratio);
    ctx.translate(tile / 2, tile / 2);
    ctx.rotate((-22 * Math.PI) / 180);
    ctx.font = '14px sans-serif';
    ctx.fillStyle = color;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, 0, 0, tile);
    return canvas.toDataURL();
  } catch {
    return null;
  }
}

/** Overlays the user's name over the content in 150x150 tiles; clicks pass through. */
export default function Watermark({ text, enabled = true, tile = WATERMARK_TILE, color = 'rgba(0,0,0,0.08)', children, style }: WatermarkProps) {
  const [url, setUrl] = useState<string | null>(null);

  useEffect(() => {
    setUrl(enabled && text ? watermarkTile(text, tile, color) : null);
  }, [text, tile, color, enabled]);

  return (
    <div style={{ position: 'relative', ...style }}>
      {children}
      {enabled && text ? (
        <div
          aria-hidden
          data-testid="watermark"
          data-text={text}
          style={{
            position: 'absolute',
            inset: 0,
            pointerEvents: 'none',
            zIndex: 9,
            backgroundImage: url ? `url(${url})` : undefined,
            backgroundSize: `${tile}px ${tile}px`,
            backgroundRepeat: 'repeat',
          }}
        />
      ) : null}
    </div>
  );
}
