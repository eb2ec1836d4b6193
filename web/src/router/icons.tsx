import {
  AccountBookOutlined,
  AppstoreOutlined,
  ApartmentOutlined,
  AudioOutlined,
  BookOutlined,
  ControlOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  FolderOutlined,
  FontSizeOutlined,
  GiftOutlined,
  LoginOutlined,
  MenuOutlined,
  PictureOutlined,
  PlaySquareOutlined,
  ProfileOutlined,
  SafetyOutlined,
  ScissorOutlined,
  ScheduleOutlined,
  SettingOutlined,
  ShopOutlined,
  TeamOutlined,
  UserOutlined,
  VideoCameraOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';

const icons = {
  AccountBookOutlined: <AccountBookOutlined />,
  AppstoreOutlined: <AppstoreOutlined />,
  ApartmentOutlined: <ApartmentOutlined />,
  AudioOutlined: <AudioOutlined />,
  BookOutlined: <BookOutlined />,
  ControlOutlined: <ControlOutlined />,
  CustomerServiceOutlined: <CustomerServiceOutlined />,
  DashboardOutlined: <DashboardOutlined />,
  FileSearchOutlined: <FileSearchOutlined />,
  FileTextOutlined: <FileTextOutlined />,
  FolderOutlined: <FolderOutlined />,
  FontSizeOutlined: <FontSizeOutlined />,
  GiftOutlined: <GiftOutlined />,
  LoginOutlined: <LoginOutlined />,
  MenuOutlined: <MenuOutlined />,
  PictureOutlined: <PictureOutlined />,
  PlaySquareOutlined: <PlaySquareOutlined />,
  ProfileOutlined: <ProfileOutlined />,
  SafetyOutlined: <SafetyOutlined />,
  ScissorOutlined: <ScissorOutlined />,
  ScheduleOutlined: <ScheduleOutlined />,
  SettingOutlined: <SettingOutlined />,
  ShopOutlined: <ShopOutlined />,
  TeamOutlined: <TeamOutlined />,
  UserOutlined: <UserOutlined />,
  VideoCameraOutlined: <VideoCameraOutlined />,
  WifiOutlined: <WifiOutlined />,
} satisfies Record<string, ReactNode>;

export type IconName = keyof typeof icons;

/** Icon by name (server menus name antd icons); unknown names get a neutral icon. */
export function renderIcon(name: string | null | undefined): ReactNode {
  if (!name) return undefined;
  if (name in icons) return icons[name as IconName];
  if (name.startsWith('Setting')) return icons.SettingOutlined;
  return icons.AppstoreOutlined;
}
