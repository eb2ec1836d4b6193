/** The dialog around a content form: the entry's values (or a new one's), saved by add or edit, a 422 shown at its field. */
import type { FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { contentKeys } from '@/api/content';
import { useWrite } from '@/api/mutations';
import ModalForm from '@/components/ModalForm';
import { atFormField } from '@/pages/activities/shared/errors';
import { feedback } from '@/utils/feedback';
import { useContentT } from '../i18n';

export interface EntryFormProps<V> {
  open: boolean;
  form: FormInstance<V>;
  title: ReactNode;
  width: number;
  initialValues: V;
  /** add or edit, by whether an entry is open */
  save: (req: V) => Promise<unknown>;
  onClose: () => void;
  onSaved: () => void;
  testId: string;
  children: ReactNode;
}

export default function EntryForm<V extends object>({ open, form, title, width, initialValues, save, onClose, onSaved, testId, children }: EntryFormProps<V>) {
  const { t } = useContentT();
  // a save marks the area stale: the list and the pages showing the entry read again
  const write = useWrite(save, contentKeys.all);
  return (
    <ModalForm<V>
      open={open}
      form={form}
      width={width}
      title={title}
      initialValues={initialValues}
      onCancel={onClose}
      onSubmit={async (values) => {
        await atFormField(form, write.mutateAsync({ ...initialValues, ...values }));
        feedback.success(t('common:savedSuccessfully'));
        onSaved();
      }}
      testId={testId}
    >
      {children}
    </ModalForm>
  );
}
