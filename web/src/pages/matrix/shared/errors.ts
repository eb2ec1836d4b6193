import { RequestError } from '@/api/request';
import { feedback } from '@/utils/feedback';

/**
 * For the silent calls behind a ModalForm: a 422 naming a field is shown at that field by ModalForm;
 * any other failure is toasted here. Rethrows so the dialog stays open.
 */
export async function atField<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (e) {
    if (!(e instanceof RequestError && e.field) && !(e instanceof RequestError && e.kind === 'aborted')) feedback.error(e instanceof Error ? e.message : String(e));
    throw e;
  }
}
