import { lazy, Suspense, useRef, useState, type ReactNode } from 'react';

const CropDialog = lazy(() => import('./CropDialog'));

interface Pending {
  file: File;
  resolve: (file: File | null) => void;
}

/**
 * `crop(file)` opens the crop dialog and resolves with the cropped file, or null when cancelled.
 * GIFs skip the dialog (cropping would drop the animation); so does everything when disabled.
 */
export function useCrop(enabled: boolean, aspect?: number): { crop: (file: File) => Promise<File | null>; element: ReactNode } {
  const [pending, setPending] = useState<Pending | null>(null);
  const pendingRef = useRef<Pending | null>(null);

  const finish = (file: File | null) => {
    const current = pendingRef.current;
    pendingRef.current = null;
    setPending(null);
    current?.resolve(file);
  };

  const crop = (file: File) => {
    if (!enabled || file.type === 'image/gif') return Promise.resolve(file);
    return new Promise<File | null>((resolve) => {
      const next = { file, resolve };
      pendingRef.current = next;
      setPending(next);
    });
  };

  const element = pending ? (
    <Suspense fallback={null}>
      <CropDialog file={pending.file} aspect={aspect} onCancel={() => finish(null)} onConfirm={(file) => finish(file)} />
    </Suspense>
  ) : null;

  return { crop, element };
}
