import i18n from '@/i18n';
import { feedback } from './feedback';

/** Copies text to the clipboard and toasts '复制成功' (or its English text). */
export async function copyText(text: string): Promise<boolean> {
  let ok = false;
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      ok = true;
    }
  } catch {
    ok = false;
  }
  if (!ok) {
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
  }
  if (ok) feedback.success(i18n.t('copySuccess'));
  else feedback.error(i18n.t('copyFailed'));
  return ok;
}
