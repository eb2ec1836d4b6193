/**
 * The upload function the material pages give the widget kit's FileUpload: files up to 5 MiB go
 * through the library's direct multipart call, larger ones through the resumable upload (when the
 * library has one), so a reload or a retry sends only the chunks the server does not have yet.
 */
import { DIRECT_LIMIT, resumableUpload } from '@/api/materials/resumable';
import type { MediaFile, UploadLibrary } from '@/api/materials/types';
import { uploadFile } from '@/components/Upload/core';
import type { Uploader } from '@/components/Upload/FileUpload';

export interface MediaUploadTarget {
  /** Direct multipart call. */
  action: string;
  /** Its text fields (sent before `file`). */
  data?: Record<string, string | number>;
  /** Library of the resumable upload; none: always direct. */
  library?: UploadLibrary;
  groupId?: number;
  /** Called with each stored material. */
  onStored?: (file: MediaFile) => void | Promise<void>;
}

/** Which way a file goes. */
export function uploadRoute(file: Pick<File, 'size'>, target: Pick<MediaUploadTarget, 'library'>): 'direct' | 'resumable' {
  return target.library && file.size > DIRECT_LIMIT ? 'resumable' : 'direct';
}

export function mediaUploader(target: MediaUploadTarget): Uploader {
  return async (file, onProgress) => {
    let stored: MediaFile;
    if (uploadRoute(file, target) === 'resumable') {
      stored = await resumableUpload(file, { library: target.library!, groupId: target.groupId, onProgress });
    } else {
      const res = await uploadFile({ action: target.action, file, data: target.data, onProgress });
      stored = res.data as unknown as MediaFile;
    }
    await target.onStored?.(stored);
    return stored;
  };
}
