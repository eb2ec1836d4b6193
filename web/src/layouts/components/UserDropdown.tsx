import { LogoutOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Avatar, Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAccess } from '@/access/AccessContext';
import { logout } from '@/api/auth';
import { menuPaths } from '@/router/menu';
import { clearSession } from '@/store/session';
import { feedback } from '@/utils/feedback';

export default function UserDropdown() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const access = useAccess();
  const user = access.user;
  const canStaff = access.can('user/merchant_user_sub/*') || menuPaths(access.menu).includes('/staffAccount');

  const signOut = async () => {
    try {
      await logout();
    } catch {
      /* the session ends locally anyway */
    }
    clearSession();
    queryClient.clear();
    feedback.success(t('layout.logoutSuccess'));
    navigate('/login', { replace: true });
  };

  const items: MenuProps['items'] = [
    {
      key: 'usercenter',
      icon: user?.avatar ? <Avatar size={18} src={user.avatar} data-testid="user-menu-avatar" /> : <UserOutlined />,
      label: <span data-testid="user-menu-usercenter">{t('layout.usercenter')}</span>,
    },
    ...(canStaff
      ? [{ key: 'staff', icon: <TeamOutlined />, label: <span data-testid="user-menu-staff">{t('layout.staffAccount')}</span> }]
      : []),
    { type: 'divider' as const },
    { key: 'logout', icon: <LogoutOutlined />, label: <span data-testid="user-menu-logout">{t('layout.logout')}</span> },
  ];

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items,
        onClick: ({ key }) => {
          if (key === 'usercenter') navigate('/usercenter');
          else if (key === 'staff') navigate('/staffAccount');
          else if (key === 'logout') void signOut();
        },
      }}
    >
      <Button type="text" data-testid="user-menu" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <Avatar size="small" src={user?.avatar || undefined} icon={<UserOutlined />} data-testid="user-avatar" />
        <span data-testid="user-name">{user?.nickname || user?.username}</span>
      </Button>
    </Dropdown>
  );
}
