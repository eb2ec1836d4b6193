import type { FormInstance } from 'antd';
import { RequestError } from '@/api/request';
import { feedback } from './feedback';

/**
 * A failed submit of a page form: a 422 naming one of `fields` (after `rename` maps the server's name to
 * the form's) shows under that field; anything else shows as an error toast.
 */
export function showSubmitError(form: FormInstance, error: unknown, fields: readonly string[], rename: Record<string, string> = {}) {
  const named = error instanceof RequestError ? error.field : undefined;
  const field = named ? (rename[named] ?? named) : undefined;
  if (field && fields.includes(field)) form.setFields([{ name: field, errors: [(error as RequestError).message ?? ''] }]);
  else feedback.error(error instanceof Error ? error.message : String(error));
}
