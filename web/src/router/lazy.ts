import { lazy, type ComponentType } from 'react';
import { CHUNK_TIMEOUT_MS } from '@/config';
import i18n from '@/i18n';
import { feedback } from '@/utils/feedback';

export class ChunkLoadError extends Error {
  constructor(message: string, readonly cause?: unknown) {
    super(message);
    this.name = 'ChunkLoadError';
  }
}

/** Loads a page chunk; fails with 'Loading chunk failed' on error or after the timeout (120 s). */
export function loadWithTimeout<T>(loader: () => Promise<T>, timeoutMs: number = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const fail = (cause?: unknown) => {
      const message = i18n.t('route.chunkFailed');
      feedback.error(message);
      reject(new ChunkLoadError(message, cause));
    };
    const timer = setTimeout(() => fail(new Error('timeout')), timeoutMs);
    loader().then(
      (mod) => {
        clearTimeout(timer);
        resolve(mod);
      },
      (error: unknown) => {
        clearTimeout(timer);
        fail(error);
      },
    );
  });
}

export function lazyPage(loader: () => Promise<{ default: ComponentType }>, timeoutMs?: number) {
  return lazy(() => loadWithTimeout(loader, timeoutMs));
}
