/**
 * The shot groups of the multi-shot library: counts (ready / all), add, rename, and delete with the
 * server's confirm flow — the first call goes without `confirm`; a group that still holds materials
 * answers 422 with the question, shown in a confirm dialog; confirming calls again with confirm: true
 * (its materials move to "ungrouped").
 */
import { DeleteOutlined, EditOutlined, InboxOutlined, PlusOutlined } from '@ant-design/icons';
import { Badge, Button, Card, Empty, Spin, Tooltip } from 'antd';
import { addGroup, deleteGroup, materialsKeys, renameGroup } from '@/api/materials';
import { useWrite } from '@/api/mutations';
import type { ShotGroup } from '@/api/materials/types';
import { RequestError } from '@/api/request';
import { feedback } from '@/utils/feedback';
import { useMaterialsT } from '../i18n';
import type { NameRequest } from '../shared/NameModal';
import '../shared/materials.css';

export const UNGROUPED = 0;

export interface GroupPaneProps {
  groups: ShotGroup[] | undefined;
  loading?: boolean;
  /** Classify of new groups (the one chosen in the tree). */
  classifyId?: number;
  selected: number;
  onSelect: (id: number) => void;
  /** After an add, rename or delete (each marks the area stale: the groups and files read again). */
  onChanged: (change: { added?: ShotGroup; deleted?: number }) => void;
  /** Opens the page's name dialog. */
  askName: (request: NameRequest) => void;
}

export default function GroupPane({ groups, loading, classifyId, selected, onSelect, onChanged, askName: setNaming }: GroupPaneProps) {
  const { t } = useMaterialsT();
  const adding = useWrite(({ name, classify }: { name: string; classify: number }) => addGroup(name, classify), materialsKeys.all);
  const renaming = useWrite(({ id, name }: { id: number; name: string }) => renameGroup(id, name), materialsKeys.all);
  const removal = useWrite(({ id, confirm }: { id: number; confirm: boolean }) => deleteGroup(id, confirm), materialsKeys.all);

  const remove = async (group: ShotGroup) => {
    const done = () => {
      feedback.success(t('group.deleted', { name: group.name }));
      onChanged({ deleted: group.id });
    };
    try {
      await removal.mutateAsync({ id: group.id, confirm: false });
      done();
    } catch (error) {
      if (error instanceof RequestError && error.status === 422) {
        feedback.confirm({
          title: t('group.deleteTitle', { name: group.name }),
          content: error.message,
          okText: t('group.deleteConfirmOk'),
          cancelText: t('common:cancel'),
          onOk: () => {
            removal.mutateAsync({ id: group.id, confirm: true }).then(done, () => undefined);
          },
        });
      } else if (error instanceof Error && !(error instanceof RequestError && error.kind === 'session')) {
        feedback.error(error.message);
      }
    }
  };

  const item = (id: number, name: string, extra?: { group: ShotGroup }) => (
    <div
      key={id}
      className={`cm-group-item${selected === id ? ' cm-group-item-active' : ''}`}
      role="button"
      tabIndex={0}
      aria-pressed={selected === id}
      onClick={() => onSelect(id)}
      onKeyDown={(e) => e.key === 'Enter' && onSelect(id)}
      data-testid={`group-item-${id}`}
    >
      {id === UNGROUPED ? <InboxOutlined /> : null}
      <span className="cm-group-item-name" title={name}>
        {name}
      </span>
      {extra ? (
        <>
          <Tooltip title={t('group.readyOfAll', { ready: extra.group.ready, count: extra.group.count })}>
            <Badge
              count={`${extra.group.ready}/${extra.group.count}`}
              style={{ backgroundColor: extra.group.count && extra.group.ready === extra.group.count ? '#52c41a' : '#bfbfbf' }}
              data-testid={`group-count-${id}`}
            />
          </Tooltip>
          <span className="cm-tree-node-actions" onClick={(e) => e.stopPropagation()}>
            <Tooltip title={t('rename')}>
              <Button
                type="text"
                size="small"
                icon={<EditOutlined />}
                aria-label={t('rename')}
                data-testid={`group-rename-${id}`}
                onClick={() =>
                  setNaming({
                    title: t('group.rename'),
                    name,
                    submit: async (next) => {
                      await renaming.mutateAsync({ id, name: next });
                      onChanged({});
                    },
                  })
                }
              />
            </Tooltip>
            <Tooltip title={t('common:delete')}>
              <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('common:delete')} data-testid={`group-delete-${id}`} onClick={() => void remove(extra.group)} />
            </Tooltip>
          </span>
        </>
      ) : null}
    </div>
  );

  return (
    <Card
      size="small"
      title={t('group.title')}
      data-testid="groups"
      extra={
        <Button
          type="link"
          size="small"
          icon={<PlusOutlined />}
          data-testid="group-add"
          onClick={() =>
            setNaming({
              title: t('group.add'),
              submit: async (name) => {
                const added = await adding.mutateAsync({ name, classify: classifyId ?? 0 });
                feedback.success(t('group.added', { name: added.name }));
                onChanged({ added });
              },
            })
          }
        >
          {t('group.add')}
        </Button>
      }
      styles={{ body: { padding: 8, maxHeight: 460, overflowY: 'auto' } }}
    >
      <Spin spinning={Boolean(loading)}>
        {groups?.length ? groups.map((g) => item(g.id, g.name, { group: g })) : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('group.empty')} />}
        {item(UNGROUPED, t('group.ungrouped'))}
      </Spin>
    </Card>
  );
}
