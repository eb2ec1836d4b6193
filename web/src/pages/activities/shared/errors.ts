import type { FormInstance } from 'antd';
import { RequestError } from '@/api/request';
import { feedback } from '@/utils/feedback';

/**
 * For the silent calls behind a form: a 422 naming a field is put on the form field `pathOf` maps it to
 * (a prize's cell, the time range); any other failure is toasted. Rethrows so a dialog stays open.
 */
export async function atFormField<T>(form: FormInstance, call: Promise<T>, pathOf: (field: string) => string | Array<string | number> = (f) => f): Promise<T> {
  try {
    return await call;
  } catch (e) {
    if (e instanceof RequestError && e.field) form.setFields([{ name: pathOf(e.field) as never, errors: [e.message] }]);
    else if (!(e instanceof RequestError && e.kind === 'aborted')) feedback.error(e instanceof Error ? e.message : String(e));
    throw e;
  }
}
