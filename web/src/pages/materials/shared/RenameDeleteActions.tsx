import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space } from 'antd';
import type { ReactNode } from 'react';
import { feedback } from '@/utils/feedback';
import { useMaterialsT } from '../i18n';
import type { NameRequest } from './NameModal';

export interface RenameDeleteActionsProps {
  /** Test ids: `<prefix>-rename-<id>`, `<prefix>-delete-<id>`, `<prefix>-delete-ok-<id>`. */
  prefix: string;
  row: { id: number; name: string };
  /** Opens the page's name dialog (NameModal). */
  askName: (request: NameRequest) => void;
  rename: (id: number, name: string) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
  /** Reloads the list after a rename or delete. */
  refresh: () => void;
  /** The page's own actions, shown first (the voice library's recognize and subtitles). */
  children?: ReactNode;
}

/** The rename + delete (with confirmation) actions of a file row in the voice, image, music and font libraries. */
export default function RenameDeleteActions({ prefix, row, askName, rename, remove, refresh, children }: RenameDeleteActionsProps) {
  const { t } = useMaterialsT();
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
              await rename(row.id, name);
              feedback.success(t('renamed'));
              refresh();
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
            await remove(row.id);
            feedback.success(t('common:deletedSuccessfully'));
            refresh();
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
