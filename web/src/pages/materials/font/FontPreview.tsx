/**
 * A line of text rendered in an uploaded font: the font is loaded from its signed URL with the
 * FontFace API under a family name of its own, added to document.fonts once, and the text is drawn
 * in it (loading / failed states while it is not usable).
 */
import { Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useMaterialsT } from '../i18n';

type LoadState = 'loading' | 'ready' | 'failed';

const loads = new Map<string, Promise<void>>();

export const fontFamilyOf = (id: number) => `cm-font-${id}`;

/** Loads a font once per family and URL; resolves when it can be used. */
export function loadFont(family: string, src: string): Promise<void> {
  const key = `${family} ${src}`;
  let load = loads.get(key);
  if (!load) {
    load = (async () => {
      if (typeof FontFace === 'undefined' || !document.fonts) throw new Error('FontFace unsupported');
      const face = new FontFace(family, `url(${JSON.stringify(src)})`);
      await face.load();
      document.fonts.add(face);
    })();
    load.catch(() => loads.delete(key));
    loads.set(key, load);
  }
  return load;
}

export default function FontPreview({ id, src, text }: { id: number; src: string; text: string }) {
  const { t } = useMaterialsT();
  const family = fontFamilyOf(id);
  const [state, setState] = useState<LoadState>('loading');

  useEffect(() => {
    let live = true;
    setState('loading');
    loadFont(family, src).then(
      () => live && setState('ready'),
      () => live && setState('failed'),
    );
    return () => {
      live = false;
    };
  }, [family, src]);

  if (state === 'failed')
    return (
      <Typography.Text type="danger" data-testid={`font-preview-${id}`} data-state="failed">
        {t('font.previewFailed')}
      </Typography.Text>
    );
  return (
    <div
      className="cm-font-preview"
      style={{ fontFamily: `'${family}', sans-serif`, opacity: state === 'ready' ? 1 : 0.35 }}
      title={text}
      data-testid={`font-preview-${id}`}
      data-state={state}
    >
      {text}
    </div>
  );
}
