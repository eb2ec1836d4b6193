import { useQuery } from '@tanstack/react-query';
import { Empty, Modal, Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useEffect, useMemo, useState, type Key } from 'react';
import { useTranslation } from 'react-i18next';
import { authKeys, fetchStaffAuthMenu, saveStaffAuthMenu } from '@/api/auth';
import { useWrite } from '@/api/mutations';
import type { MenuNode, StaffRow } from '@/api/auth/types';
import { menuTitle } from '@/router/menu';
import { feedback } from '@/utils/feedback';

export function menuNodeTestId(path: string): string {
  return `auth-menu-${path.replace(/^\//, '').replace(/\//g, '-') || 'root'}`;
}

function toTree(nodes: MenuNode[], ids: Map<string, MenuNode['id']>, leaves: string[]): DataNode[] {
  return nodes.map((n) => {
    ids.set(String(n.id), n.id);
    if (!n.children?.length) leaves.push(String(n.id));
    return {
      key: String(n.id),
      title: <span data-testid={menuNodeTestId(n.path)}>{menuTitle(n.name, n.path)}</span>,
      children: n.children?.length ? toTree(n.children, ids, leaves) : undefined,
    };
  });
}

/** 'menu authorization': which of the grantable menus the staff member may open. */
export default function MenuAuthModal({ staff, onClose }: { staff: StaffRow | null; onClose: () => void }) {
  const { t } = useTranslation('auth');
  const open = staff !== null;
  const query = useQuery({
    queryKey: authKeys.staffAuthMenu(staff?.id),
    queryFn: () => fetchStaffAuthMenu(staff!.id),
    enabled: open,
    staleTime: 0,
    gcTime: 0,
  });
  const [checked, setChecked] = useState<Key[]>([]);
  const saving = useWrite(({ id, menus }: { id: number; menus: Parameters<typeof saveStaffAuthMenu>[1] }) => saveStaffAuthMenu(id, menus), authKeys.all);

  const { treeData, ids, leaves } = useMemo(() => {
    const map = new Map<string, MenuNode['id']>();
    const leafKeys: string[] = [];
    return { treeData: toTree(query.data?.tree ?? [], map, leafKeys), ids: map, leaves: leafKeys };
  }, [query.data, t]); // eslint-disable-line react-hooks/exhaustive-deps

  // The grants are the menus without children; a group's box follows them (ticked when all are, half
  // when some are). Passing a stored group id on would tick every child of it.
  const grantedLeaves = (keys: readonly Key[]) => {
    const set = new Set(keys.map(String));
    return leaves.filter((k) => set.has(k));
  };

  useEffect(() => {
    setChecked(grantedLeaves(query.data?.checked ?? []));
  }, [query.data, leaves]); // eslint-disable-line react-hooks/exhaustive-deps

  const save = async () => {
    if (!staff) return;
    try {
      await saving.mutateAsync({ id: staff.id, menus: grantedLeaves(checked).map((k) => ids.get(k) ?? Number(k)) });
      feedback.success(t('staff.authSaved'));
      onClose();
    } catch {
      /* toasted by the request wrapper */
    }
  };

  return (
    <Modal
      open={open}
      title={t('staff.authTitle', { name: staff?.username ?? '' })}
      onCancel={onClose}
      onOk={save}
      okText={t('common:save')}
      cancelText={t('common:cancel')}
      confirmLoading={saving.isPending}
      okButtonProps={{ 'data-testid': 'auth-menu-save', disabled: query.isPending }}
      destroyOnHidden
    >
      {query.isPending ? (
        <Spin />
      ) : treeData.length ? (
        <Tree
          checkable
          selectable={false}
          defaultExpandAll
          treeData={treeData}
          checkedKeys={checked}
          onCheck={(value) => setChecked(Array.isArray(value) ? value : value.checked)}
          data-testid="auth-menu-tree"
        />
      ) : (
        <Empty description={t('staff.noGrantable')} />
      )}
    </Modal>
  );
}
