import { describe, expect, it } from 'vitest';
import { resources } from '@/i18n';

function keys(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('locales', () => {
  it('zh-CN and en have the same areas and keys', () => {
    const zh = resources['zh-CN'];
    const en = resources.en;
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
    for (const ns of Object.keys(zh)) {
      expect(keys(en[ns]).sort(), ns).toEqual(keys(zh[ns]).sort());
    }
  });

  it('keeps the SPEC texts', () => {
    expect(resources['zh-CN'].common.copySuccess).toBe('复制成功');
    const en = resources.en.common as Record<string, Record<string, string>>;
    expect(en.request.notFound).toBe('Status:404, requesting a server record that does not exist!');
    expect(en.request.noResponse).toBe('Request server did not respond!');
    expect(en.validation.passwordMismatch).toBe('The passwords entered twice are inconsistent');
    expect(en.route.vipOnly).toBe('This function is a membership function, please recharge VIP');
  });
});
