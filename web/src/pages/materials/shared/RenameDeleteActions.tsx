import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space } from 'antd';
import type { ReactNode } from 'react';
import { materialsKeys } from '@/api/materials';
import { useWrite } from '@/api/mutations';
import { feedback } from '@/utils/feedback';
import { useMaterialsT } from '../i18n';
import type { NameRequest } from './NameModal';

export interface RenameDeleteActionsProps {
  /** Test ids: `<prefix>-rename-<id>`, `<prefix>-delete-<id>`, `<prefix>-delete-ok-<id>`. */
  prefix: string;
  row: { id: number; name: string };
  /** Opens the page's name dialog (NameModal). */
  askName: (request: NameRequest) => void;
  /** A rename or delete marks the area stale: the list reads again. */
  rename: (id: number, name: string) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
  /** The page's own actions, shown first (the voice library's recognize and subtitles). */
  children?: ReactNode;
}

/** The rename + delete (with confirmation) actions of a file row in the voice, image, music and font libraries. */
export default function RenameDeleteActions({ prefix, row, askName, rename, remove, children }: RenameDeleteActionsProps) {
  const { t } = useMaterialsT();
  const renaming = useWrite(({ id, name }: { id: number; name: string }) => rename(id, name), materialsKeys.all);
  const removal = useWrite(remove, materialsKeys.all);
  return (
    <Space size={0} wrap>
      {children}
      <Button
        type="link"
        size="small"
        icon={<EditOutlined />}
        data-testid={`${prefix}-rename-${row.id}`}
        onClick={() =>
          askName({
            title: t('rename'),
            name: row.name,
            max: 120,
            submit: async (name) => {
              await renaming.mutateAsync({ id: row.id, name });
              feedback.success(t('renamed'));
            },
          })
        }
      >
        {t('rename')}
      </Button>
      <Popconfirm
        title={t('deleteConfirm', { name: row.name })}
        okText={t('common:delete')}
        cancelText={t('common:cancel')}
        okButtonProps={{ danger: true, 'data-testid': `${prefix}-delete-ok-${row.id}` } as never}
        onConfirm={async () => {
          try {
            await removal.mutateAsync(row.id);
            feedback.success(t('common:deletedSuccessfully'));
          } catch {
            /* toasted by the request wrapper */
          }
        }}
      >
        <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`${prefix}-delete-${row.id}`}>
          {t('common:delete')}
        </Button>
      </Popconfirm>
    </Space>
  );
}
