/**
 * The crop dialog shown before an image upload (SPEC §2 "uploaders with a crop dialog"). Loaded
 * lazily by the uploaders so react-easy-crop stays out of every page chunk.
 */
import { Modal, Slider, Space } from 'antd';
import { useEffect, useState } from 'react';
import Cropper, { type Area, type Point } from 'react-easy-crop';
import { useWidgetsT } from '../i18n';

export interface CropDialogProps {
  file: File | null;
  /** Width / height of the crop box; undefined keeps the image's own ratio. */
  aspect?: number;
  onCancel: () => void;
  onConfirm: (file: File) => void;
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = reject;
    img.src = src;
  });
}

/**
 * Cuts `area` (natural pixels) out of the image into a new File of the same type. Where canvas is not
 * available (or the image cannot be decoded) the original file is kept.
 */
export async function cropFile(file: File, src: string, area: Area | null): Promise<File> {
  if (!area || area.width <= 0 || area.height <= 0) return file;
  try {
    const img = await loadImage(src);
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(area.width);
    canvas.height = Math.round(area.height);
    const ctx = canvas.getContext('2d');
    if (!ctx) return file;
    ctx.drawImage(img, area.x, area.y, area.width, area.height, 0, 0, area.width, area.height);
    const type = file.type === 'image/gif' ? 'image/png' : file.type;
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, 0.92));
    if (!blob) return file;
    const name = type === file.type ? file.name : file.name.replace(/\.[^.]+$/, '') + '.png';
    return new File([blob], name, { type });
  } catch {
    return file;
  }
}

export default function CropDialog({ file, aspect, onCancel, onConfirm }: CropDialogProps) {
  const { t } = useWidgetsT();
  const [src, setSrc] = useState<string>('');
  const [crop, setCrop] = useState<Point>({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setSrc(url);
    setCrop({ x: 0, y: 0 });
    setZoom(1);
    setArea(null);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const confirm = async () => {
    if (!file) return;
    setBusy(true);
    try {
      onConfirm(await cropFile(file, src, area));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={Boolean(file)}
      title={t('upload.cropTitle')}
      onCancel={onCancel}
      onOk={confirm}
      okText={t('upload.cropOk')}
      cancelText={t('common:cancel')}
      confirmLoading={busy}
      destroyOnHidden
      width={560}
      okButtonProps={{ 'data-testid': 'crop-ok' } as Record<string, string>}
      cancelButtonProps={{ 'data-testid': 'crop-cancel' } as Record<string, string>}
    >
      <div data-testid="crop-dialog" style={{ position: 'relative', height: 320, background: '#333' }}>
        {src ? (
          <Cropper
            image={src}
            crop={crop}
            zoom={zoom}
            aspect={aspect ?? 1}
            onCropChange={setCrop}
            onZoomChange={setZoom}
            onCropComplete={(_, pixels) => setArea(pixels)}
          />
        ) : null}
      </div>
      <Space style={{ width: '100%', marginTop: 12 }}>
        <span>{t('upload.zoom')}</span>
        <Slider min={1} max={3} step={0.1} value={zoom} onChange={setZoom} style={{ width: 240 }} />
      </Space>
    </Modal>
  );
}
