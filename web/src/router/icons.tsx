import {
  AccountBookOutlined,
  ApartmentOutlined,
  AppstoreOutlined,
  AudioOutlined,
  BookOutlined,
  CameraOutlined,
  ControlOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  FireOutlined,
  FolderOutlined,
  FontSizeOutlined,
  GiftOutlined,
  IdcardOutlined,
  LoginOutlined,
  MenuOutlined,
  NotificationOutlined,
  PictureOutlined,
  PlaySquareOutlined,
  ProfileOutlined,
  ReadOutlined,
  SafetyOutlined,
  ScheduleOutlined,
  ScissorOutlined,
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
  ApartmentOutlined: <ApartmentOutlined />,
  AppstoreOutlined: <AppstoreOutlined />,
  AudioOutlined: <AudioOutlined />,
  BookOutlined: <BookOutlined />,
  CameraOutlined: <CameraOutlined />,
  ControlOutlined: <ControlOutlined />,
  CustomerServiceOutlined: <CustomerServiceOutlined />,
  DashboardOutlined: <DashboardOutlined />,
  FileSearchOutlined: <FileSearchOutlined />,
  FileTextOutlined: <FileTextOutlined />,
  FireOutlined: <FireOutlined />,
  FolderOutlined: <FolderOutlined />,
  FontSizeOutlined: <FontSizeOutlined />,
  GiftOutlined: <GiftOutlined />,
  IdcardOutlined: <IdcardOutlined />,
  LoginOutlined: <LoginOutlined />,
  MenuOutlined: <MenuOutlined />,
  NotificationOutlined: <NotificationOutlined />,
  PictureOutlined: <PictureOutlined />,
  PlaySquareOutlined: <PlaySquareOutlined />,
  ProfileOutlined: <ProfileOutlined />,
  ReadOutlined: <ReadOutlined />,
  SafetyOutlined: <SafetyOutlined />,
  ScheduleOutlined: <ScheduleOutlined />,
  ScissorOutlined: <ScissorOutlined />,
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
