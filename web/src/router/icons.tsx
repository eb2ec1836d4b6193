import {
  AccountBookOutlined,
  AppstoreOutlined,
  ApartmentOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  LoginOutlined,
  MenuOutlined,
  ProfileOutlined,
  SafetyOutlined,
  ScheduleOutlined,
  SettingOutlined,
  ShopOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

const icons = {
  AccountBookOutlined: <AccountBookOutlined />,
  AppstoreOutlined: <AppstoreOutlined />,
  ApartmentOutlined: <ApartmentOutlined />,
  DashboardOutlined: <DashboardOutlined />,
  FileSearchOutlined: <FileSearchOutlined />,
  FileTextOutlined: <FileTextOutlined />,
  LoginOutlined: <LoginOutlined />,
  MenuOutlined: <MenuOutlined />,
  ProfileOutlined: <ProfileOutlined />,
  SafetyOutlined: <SafetyOutlined />,
  ScheduleOutlined: <ScheduleOutlined />,
  SettingOutlined: <SettingOutlined />,
  ShopOutlined: <ShopOutlined />,
  TeamOutlined: <TeamOutlined />,
  UserOutlined: <UserOutlined />,
} satisfies Record<string, ReactNode>;

export type IconName = keyof typeof icons;

/** Icon by name (server menus name antd icons); unknown names get a neutral icon. */
export function renderIcon(name: string | null | undefined): ReactNode {
  if (!name) return undefined;
  if (name in icons) return icons[name as IconName];
  if (name.startsWith('Setting')) return icons.SettingOutlined;
  return icons.AppstoreOutlined;
}
