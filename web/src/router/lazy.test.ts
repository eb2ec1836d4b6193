import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_TIMEOUT_MS } from '@/config';
import i18n from '@/i18n';
import { resolveLayout } from '@/store/settings';
import { spyFeedback } from '@/test/utils';
import { copyText } from '@/utils/copy';
import { setFeedback } from '@/utils/feedback';
import { ChunkLoadError, loadWithTimeout } from './lazy';

let feedback: ReturnType<typeof spyFeedback>;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  feedback = spyFeedback();
});
afterEach(() => {
  vi.useRealTimers();
  setFeedback(null);
});

describe('lazy route chunks', () => {
  it("fail with 'Loading chunk failed' after 120 s", async () => {
    vi.useFakeTimers();
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    const pending = loadWithTimeout(() => new Promise(() => undefined)).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(119_999);
    expect(feedback.error).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as Error).message).toBe('Loading chunk failed');
    expect(feedback.error).toHaveBeenCalledWith('Loading chunk failed');
  });

  it("fail with 'Loading chunk failed' when the import fails", async () => {
    await expect(loadWithTimeout(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')))).rejects.toBeInstanceOf(
      ChunkLoadError,
    );
    expect(feedback.error).toHaveBeenCalledWith('Loading chunk failed');
  });

  it('pass a loaded chunk through', async () => {
    await expect(loadWithTimeout(() => Promise.resolve({ default: 1 }))).resolves.toEqual({ default: 1 });
    expect(feedback.error).not.toHaveBeenCalled();
  });
});

describe('layout variant', () => {
  it("is 'header' when the stored home type is 1, else 'second'", () => {
    expect(resolveLayout('auto', 1)).toBe('header');
    expect(resolveLayout('auto', 2)).toBe('second');
    expect(resolveLayout('auto', null)).toBe('second');
    expect(resolveLayout('second', 1)).toBe('second');
  });
});

describe('copy helper', () => {
  it("toasts '复制成功'", async () => {
    await i18n.changeLanguage('zh-CN');
    try {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: vi.fn().mockResolvedValue(undefined) } });
      await expect(copyText('abc')).resolves.toBe(true);
      expect(navigator.clipboard.writeText).toHaveBeenCalledWith('abc');
      expect(feedback.success).toHaveBeenCalledWith('复制成功');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
